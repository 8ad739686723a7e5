"""Authenticate websocket connections by API token or by a short-lived ticket.

Browsers cannot set an Authorization header on a websocket, so the credential travels in the query string:
``?token=<api token>`` or ``?ticket=<ticket from POST /api/v1/auth/ticket/>``. A ticket is signed and expires
after ``TICKET_MAX_AGE`` seconds, so it is safe to put in a URL that may end up in a log.

A socket that authenticates by its token or ticket is accepted from a page of any origin, as the API's CORS
answers any origin: the credential is the page's own, not a cookie the browser adds, so another site cannot ride
on a visitor's session. A socket without one keeps the origin check (``origin_validator``).
"""

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from channels.security.websocket import OriginValidator
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core import signing

TICKET_SALT = "dvorak.websocket-ticket"
TICKET_MAX_AGE = 60


def make_ticket(user) -> str:
    return signing.TimestampSigner(salt=TICKET_SALT).sign(str(user.pk))


def user_for_ticket(ticket: str):
    try:
        user_id = signing.TimestampSigner(salt=TICKET_SALT).unsign(ticket, max_age=TICKET_MAX_AGE)
    except signing.BadSignature:
        return None
    return get_user_model().objects.filter(pk=user_id, is_active=True).first()


def user_for_token(key: str):
    from rest_framework.authtoken.models import Token

    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token.user.is_active:
        return None
    return token.user


@database_sync_to_async
def authenticate(query: dict):
    if query.get("ticket"):
        return user_for_ticket(query["ticket"][0])
    if query.get("token"):
        return user_for_token(query["token"][0])
    return None


def query_of(scope) -> dict:
    return parse_qs(scope.get("query_string", b"").decode())


class TokenAuthMiddleware(BaseMiddleware):
    async def __call__(self, scope, receive, send):
        scope = dict(scope)
        user = scope.get("user")
        if user is None or not user.is_authenticated:  # not already found by its credential (origin_validator)
            scope["user"] = await authenticate(query_of(scope)) or AnonymousUser()
        return await super().__call__(scope, receive, send)


class BrowserOriginValidator(OriginValidator):
    """Browsers send an Origin, which must be one of ALLOWED_HOSTS; programs (bots, MUSH clients) send none.

    Sockets authenticate by token or ticket in the URL, never by cookie, so a socket without an Origin is
    not a cross-site request riding on someone's session.
    """

    def valid_origin(self, parsed_origin):
        return parsed_origin is None or self.validate_origin(parsed_origin)


class CredentialOrOriginValidator:
    """A socket whose token or ticket authenticates goes on whatever its Origin (its user found here, not looked up
    again); any other keeps the browser origin check, refused at the handshake (403) from a foreign page."""

    def __init__(self, application, hosts):
        self.application = application
        self.origin_checked = BrowserOriginValidator(application, hosts)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            user = await authenticate(query_of(scope))
            if user is not None:
                return await self.application({**scope, "user": user}, receive, send)
        return await self.origin_checked(scope, receive, send)


def origin_validator(application):
    from django.conf import settings

    hosts = settings.ALLOWED_HOSTS or (["localhost", "127.0.0.1", "[::1]"] if settings.DEBUG else [])
    return CredentialOrOriginValidator(application, hosts)
