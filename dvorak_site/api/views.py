"""Accounts and the API's frame: register, tokens, websocket ticket, the account, health."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.tickets import TICKET_MAX_AGE, make_ticket
from dvorak_kit.api.params import takes_no_body
from dvorak_kit.api.schema import refusals
from dvorak_kit.api.throttling import AnonRateThrottle
from dvorak_site.api import serializers, services
from dvorak_site.api.health import UNAVAILABLE, health_report, readiness_report


def token_answer(record, token: str, **more) -> dict:
    return {"token": token, "id": record.token_key, "expiry": record.expiry, **more}


class RegisterView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    throttle_classes = [AnonRateThrottle]
    location_header = False  # an account has no address of its own

    @extend_schema(request=serializers.RegisterSerializer, tags=["auth"], responses={
        201: serializers.RegisteredSerializer,
        **refusals({400: "Not valid (`invalid`): the username is taken, the password is too weak, or the email "
                         "address is not one; `details` say which."})})
    def post(self, request):
        form = serializers.RegisterSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        record, token = services.account_register(**form.validated_data)
        return Response(token_answer(record, token, username=record.user.username), status=status.HTTP_201_CREATED)


class TokenView(APIView):
    """``POST``: sign in, a new token. ``DELETE``: sign out, revoking the token the request was sent with."""

    permission_classes = [permissions.AllowAny]

    def signing_out(self) -> bool:
        return getattr(getattr(self, "request", None), "method", None) == "DELETE"

    # Signing in reads no credential but the body's (a stale token sent along must not refuse the sign-in); only
    # signing out needs the request signed in. Any other method is 405, as at every path, not 401.
    def get_authenticators(self):
        return super().get_authenticators() if self.signing_out() else []

    def get_permissions(self):
        return [permissions.IsAuthenticated()] if self.signing_out() else super().get_permissions()

    def get_throttles(self):
        return super().get_throttles() if self.signing_out() else [AnonRateThrottle()]

    @extend_schema(request=serializers.CredentialsSerializer, tags=["auth"], responses={
        200: serializers.TokenSerializer,
        **refusals({401: "The username or password is wrong (`not_authenticated`).",
                    429: "Over the rate limit, or too many failed sign-ins for this username or from this address "
                         "(`throttled`); `Retry-After` says when to try again."})})
    def post(self, request):
        form = serializers.CredentialsSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        record, token = services.token_obtain(request=request._request, **form.validated_data)
        return Response(token_answer(record, token))

    @extend_schema(request=None, tags=["auth"], responses={
        204: OpenApiResponse(description="Revoked: the token is refused from now on."),
        **refusals({400: "The request was signed in by the session cookie, not a token (`invalid`)."})})
    @takes_no_body
    def delete(self, request):
        services.token_revoke_current(user=request.user, auth=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenListView(APIView):
    """The signed-in user's tokens (never the tokens themselves: their ids, the first 15 characters), and revoking
    them all."""

    @extend_schema(tags=["auth"], responses={200: serializers.TokenRecordSerializer(many=True)})
    def get(self, request):
        current = getattr(request.auth, "digest", None)
        return Response([{"id": record.token_key, "created": record.created, "expiry": record.expiry,
                          "current": record.digest == current} for record in services.tokens_of(request.user)])

    @extend_schema(request=None, tags=["auth"], operation_id="auth_tokens_revoke_all",
                   responses={200: serializers.RevokedSerializer})
    @takes_no_body
    def delete(self, request):
        return Response({"revoked": services.token_revoke_all(user=request.user)})


class TokenDetailView(APIView):
    @extend_schema(request=None, tags=["auth"], operation_id="auth_tokens_revoke", responses={
        204: OpenApiResponse(description="Revoked."),
        **refusals({404: "You have no token with that id (`not_found`)."})})
    @takes_no_body
    def delete(self, request, token_id: str):
        services.token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class AccountView(APIView):
    """The signed-in user's account: their username and email address (which only they see)."""

    @extend_schema(tags=["auth"], responses={200: serializers.AccountSerializer})
    def get(self, request):
        return Response({"username": request.user.get_username(), "email": request.user.email})

    @extend_schema(request=serializers.AccountUpdateSerializer, tags=["auth"], responses={
        200: serializers.AccountSerializer, **refusals({400: "Not an email address (`invalid`)."})})
    def patch(self, request):
        form = serializers.AccountUpdateSerializer(data=request.data, partial=True)  # a field left out is kept
        form.is_valid(raise_exception=True)
        user = services.account_update(user=request.user, **form.validated_data)
        return Response({"username": user.get_username(), "email": user.email})


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
