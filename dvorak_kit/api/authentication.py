"""Token authentication (django-rest-knox's: the database holds a token's hash, never the token) that remembers a
token for a few seconds instead of reading it on every request.

Each process keeps the tokens it has seen, by their hash, with their users, for ``TOKEN_CACHE_SECONDS`` (5 s by
default), and never past the token's own expiry. Deleting a token (``DELETE /auth/token/``, the admin) or saving
its user (deactivated, renamed) forgets it at once in the process that did it; other processes notice within that
TTL, which bounds how long a revoked token still works.
"""

from __future__ import annotations

import threading
import time

import structlog
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.signals import token_expired
from rest_framework.exceptions import AuthenticationFailed


class TokenCache:
    def __init__(self, max_entries: int = 10_000):
        self.max_entries = max_entries
        self._entries: dict[str, tuple[float, object, object]] = {}
        self._lock = threading.Lock()

    @staticmethod
    def ttl() -> float:
        return float(getattr(settings, "TOKEN_CACHE_SECONDS", 5.0))

    def get(self, key: str):
        entry = self._entries.get(key)
        if entry is None or entry[0] < time.monotonic():
            return None
        return entry[1], entry[2]

    def put(self, key: str, user, token) -> None:
        ttl = self.ttl()
        if token.expiry is not None:  # never trusted past its own expiry
            ttl = min(ttl, (token.expiry - timezone.now()).total_seconds())
        if ttl <= 0:
            return
        with self._lock:
            if len(self._entries) >= self.max_entries:
                now = time.monotonic()
                self._entries = {k: e for k, e in self._entries.items() if e[0] >= now}
                if len(self._entries) >= self.max_entries:
                    self._entries.clear()
            self._entries[key] = (time.monotonic() + ttl, user, token)

    def forget(self, key: str) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def forget_user(self, user_id) -> None:
        with self._lock:
            self._entries = {k: e for k, e in self._entries.items() if getattr(e[1], "pk", None) != user_id}

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


TOKEN_CACHE = TokenCache()


class CachedTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <token>``. A refusal is knox's ("Invalid token."), a token that is not text among
    them; an expired token is deleted as it is refused."""

    def authenticate_credentials(self, token: bytes | str):
        try:
            text = token.decode() if isinstance(token, bytes) else token
        except UnicodeDecodeError:
            raise AuthenticationFailed("Invalid token.") from None
        digest = hash_token(text)
        cached = TOKEN_CACHE.get(digest)
        if cached is None:
            # Raises on an unknown, expired or revoked token, or an inactive user; moves the expiry on.
            user, auth_token = super().authenticate_credentials(text.encode())
            TOKEN_CACHE.put(digest, user, auth_token)
            cached = user, auth_token
        user, token = cached
        structlog.contextvars.bind_contextvars(user=user.get_username())  # in the request's every later log line
        # Each request gets its own copy: nothing a request sets on its user leaks into another's.
        return copied(user), token

    def _cleanup_token(self, auth_token) -> bool:
        """Whether the token read has expired, deleting it then (knox's signal sent, as knox sends it). The user's
        other expired tokens are not read here, as knox reads them on every check (a second query on every cold
        read of a token: a websocket's opening among them): they are refused if ever sent, and deleted when the
        user signs in again (``dvorak_site.api.services.issue_token``)."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=self.__class__, username=username, source="auth_token")
            return True
        return False


def copied(user):
    """What ``copy.copy(user)`` gives (the instance's fields, and its ``_state`` with the related objects it caches,
    copied as Django's own pickling copies them), without the model's lookup in the app registry that
    ``copy.copy`` makes through ``Model.__reduce__`` on every call."""
    state = user.__getstate__()
    for name, value in state.pop("_memoryview_attrs", ()):
        state[name] = memoryview(value)
    clone = user.__class__.__new__(user.__class__)
    clone.__dict__.update(state)
    return clone


def _token_deleted(sender, instance, **kwargs):
    TOKEN_CACHE.forget(instance.digest)


def _user_saved(sender, instance, **kwargs):
    TOKEN_CACHE.forget_user(instance.pk)


post_delete.connect(_token_deleted, sender=AuthToken, dispatch_uid="dvorak-token-cache-delete")
post_save.connect(_user_saved, sender=get_user_model(), dispatch_uid="dvorak-token-cache-user")


class CachedTokenScheme(OpenApiAuthenticationExtension):
    """In the schema as before the tokens were hashed: ``tokenAuth``, ``Authorization: Token <token>``."""

    target_class = CachedTokenAuthentication
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return build_bearer_security_scheme_object(header_name="Authorization", token_prefix="Token")
