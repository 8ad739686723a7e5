"""Accounts and the API's frame: register, token, websocket ticket, health."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from dvorak_kit.api.params import takes_no_body
from dvorak_kit.api.schema import refusals
from dvorak_kit.api.throttling import AnonRateThrottle
from dvorak_site.api import serializers, services
from dvorak_site.api.health import UNAVAILABLE, health_report, readiness_report
from dvorak_site.wsauth import TICKET_MAX_AGE, make_ticket


class RegisterView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    throttle_classes = [AnonRateThrottle]
    location_header = False  # an account has no address of its own

    @extend_schema(request=serializers.RegisterSerializer, tags=["auth"], responses={
        201: serializers.RegisteredSerializer,
        **refusals({400: "Not valid (`invalid`): the username is taken, or the password is too weak; `details` "
                         "say which."})})
    def post(self, request):
        form = serializers.RegisterSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        token = services.account_register(**form.validated_data)
        return Response({"token": token.key, "username": token.user.username}, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    throttle_classes = [AnonRateThrottle]

    @extend_schema(request=serializers.CredentialsSerializer, tags=["auth"], responses={
        200: serializers.TokenSerializer,
        **refusals({401: "The username or password is wrong (`not_authenticated`)."})})
    def post(self, request):
        form = serializers.CredentialsSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        token = services.token_obtain(**form.validated_data)
        return Response({"token": token.key})


class TicketView(APIView):
    """A short-lived ticket to open a websocket with, for clients that cannot send the token header."""

    location_header = False  # a ticket is a credential, not a thing with an address

    @extend_schema(request=None, responses={201: serializers.TicketSerializer}, tags=["auth"])
    @takes_no_body
    def post(self, request):
        return Response({"ticket": make_ticket(request.user), "expires_in": TICKET_MAX_AGE}, status=status.HTTP_201_CREATED)


def health_status(report: dict) -> int:
    """503 only when the database is unreachable; Redis away is 200 ``degraded`` (dvorak_site/api/health.py)."""
    return status.HTTP_503_SERVICE_UNAVAILABLE if report["status"] == UNAVAILABLE else status.HTTP_200_OK


class ProbeView(APIView):
    """The health checks: anyone, never throttled, and no authentication (a token sent is not even looked up, so a
    probe costs no query). Answered before the host check and the HTTPS redirect (dvorak_site/middleware.py)."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    throttle_classes: list = []


class HealthView(ProbeView):
    @extend_schema(tags=["health"], responses={
        200: serializers.HealthSerializer,
        503: OpenApiResponse(serializers.HealthSerializer, description="The database is unreachable.")},
        description="Each part the service needs, with its time or its error. 200 while the database answers "
                    "(`status` `degraded` when Redis does not), 503 when the database does not.")
    def get(self, request):
        report = health_report()
        return Response(report, status=health_status(report))


class LiveView(ProbeView):
    @extend_schema(tags=["health"], responses={200: serializers.LiveSerializer},
                   description="The process answers. Asks nothing else: no database, no Redis.")
    def get(self, request):
        return Response({"status": "ok"})


class ReadyView(ProbeView):
    @extend_schema(tags=["health"], responses={
        200: serializers.ReadySerializer,
        503: OpenApiResponse(serializers.ReadySerializer, description="The database is unreachable.")},
        description="Whether this server can answer requests: 200 while the database answers; Redis away is "
                    "`degraded` (200: the API works without it), 503 only when the database does not answer.")
    def get(self, request):
        report = readiness_report()
        return Response(report, status=health_status(report))


class NotFoundView(APIView):
    """Any path under /api/v1/ that names nothing: a 404 in the API's error shape, not an HTML page."""

    permission_classes = [permissions.AllowAny]
    throttle_classes: list = []

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        from rest_framework.exceptions import NotFound

        raise NotFound("There is nothing at this address; see /api/v1/docs/ for what there is.")
