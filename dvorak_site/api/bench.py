"""The floor any Django write pays: an authenticated DRF request that does one INSERT (bench/commands.py).

Mounted only when DVORAK_BENCH_ENDPOINTS is on; the benchmark creates the table it writes to.
"""

import json

from django.db import connection
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView


class BareInsertView(APIView):
    @extend_schema(exclude=True)
    def post(self, request):
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO bench_bare_insert (actor, data, recorded_at) VALUES (%s, %s, now()) RETURNING id",
                [request.user.get_username(), json.dumps(request.data)],
            )
            (row_id,) = cursor.fetchone()
        return Response({"id": row_id}, status=status.HTTP_201_CREATED)
