"""Accounts and the API's frame: register, token, websocket ticket, health."""

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from dvorak_kit.api.params import takes_no_body
from dvorak_kit.api.schema import refusals
from dvorak_kit.api.throttling import AnonRateThrottle
from dvorak_site.api import serializers, services
from dvorak_site.api.health import health_report
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


class HealthView(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes: list = []

    @extend_schema(responses={200: serializers.HealthSerializer, 503: serializers.HealthSerializer}, tags=["health"])
    def get(self, request):
        report = health_report()
        code = status.HTTP_200_OK if report["status"] == "ok" else status.HTTP_503_SERVICE_UNAVAILABLE
        return Response(report, status=code)


class NotFoundView(APIView):
    """Any path under /api/v1/ that names nothing: a 404 in the API's error shape, not an HTML page."""

    permission_classes = [permissions.AllowAny]
    throttle_classes: list = []

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        from rest_framework.exceptions import NotFound

        raise NotFound("There is nothing at this address; see /api/v1/docs/ for what there is.")
