"""Authenticate websocket connections by API token or by a short-lived ticket.

Browsers cannot set an Authorization header on a websocket, so the credential travels in the query string:
``?token=<api token>`` or ``?ticket=<ticket from POST /api/v1/auth/ticket/>``. A ticket is signed, opens one
socket once and expires after ``TICKET_MAX_AGE`` seconds, so it is safe to put in a URL that may end up in a log
(nginx logs ``/ws/`` without the query string all the same: deploy/nginx.conf).

A socket that authenticates by its token or ticket is accepted from a page of any origin, as the API's CORS
answers any origin: the credential is the page's own, not a cookie the browser adds, so another site cannot ride
on a visitor's session. A socket without one keeps the origin check (``origin_validator``).
"""

from urllib.parse import parse_qs

from channels.security.websocket import OriginValidator
from django.contrib.auth.models import AnonymousUser
from rest_framework.exceptions import AuthenticationFailed

from accounts.tickets import spend_ticket
from dvorak_kit.api.authentication import CachedTokenAuthentication
from dvorak_kit.db_threads import on_db_thread

TOKENS = CachedTokenAuthentication()


def user_for_token(key: str):
    """The token's user, as the API finds it (its hash, its expiry, the process's short cache)."""
    try:
        user, _ = TOKENS.authenticate_credentials(key)
    except AuthenticationFailed:
        return None
    return user


async def authenticate(query: dict):
    """The user the query's ticket or token is for, or None; on the live threads (dvorak_kit/db_threads.py)."""
    return await on_db_thread(user_for_query, query)


def user_for_query(query: dict):
    if query.get("ticket"):
        return spend_ticket(query["ticket"][0])  # a ticket opens one socket, once (accounts.tickets)
    if query.get("token"):
        return user_for_token(query["token"][0])
    return None


def query_of(scope) -> dict:
    return parse_qs(scope.get("query_string", b"").decode())


class BrowserOriginValidator(OriginValidator):
    """Browsers send an Origin, which must be one of ALLOWED_HOSTS; programs (bots, MUSH clients) send none.

    Sockets authenticate by token or ticket in the URL, never by cookie, so a socket without an Origin is
    not a cross-site request riding on someone's session.
    """

    def valid_origin(self, parsed_origin):
        return parsed_origin is None or self.validate_origin(parsed_origin)


class CredentialOrOriginValidator:
    """The socket's user, in its scope as channels' auth middleware puts it: the one its token or ticket is for, or
    ``AnonymousUser``. A socket whose credential authenticates goes on whatever its Origin; any other keeps the
    browser origin check, refused at the handshake (403) from a foreign page. (The scope is copied once, here: it
    is kept for the socket's life, and 5,000 sockets made each extra copy a few megabytes.)"""

    def __init__(self, application, hosts):
        self.application = application
        self.origin_checked = BrowserOriginValidator(application, hosts)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            user = await authenticate(query_of(scope))
            if user is not None:
                return await self.application({**scope, "user": user}, receive, send)
            scope = {**scope, "user": AnonymousUser()}
        return await self.origin_checked(scope, receive, send)


def origin_validator(application):
    from django.conf import settings

    hosts = settings.ALLOWED_HOSTS or (["localhost", "127.0.0.1", "[::1]"] if settings.DEBUG else [])
    return CredentialOrOriginValidator(application, hosts)
