"""Accounts: the use cases behind the register, token, token list, ticket and account endpoints."""

from __future__ import annotations

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.exceptions import Throttled

from accounts.signin_limits import retry_after
from dvorak_core.errors import DomainError, NotFound


class BadCredentials(DomainError):
    code, status = "not_authenticated", 401


class NotSignedInByToken(DomainError):
    code, status = "invalid", 400


def issue_token(user) -> tuple[AuthToken, str]:
    """A new token for ``user``: the stored record (its hash) and the token itself, which is shown once. The user's
    tokens that have expired meanwhile go (a token read checks only its own expiry: dvorak_kit/api/authentication)."""
    AuthToken.objects.filter(user=user, expiry__lt=timezone.now()).delete()
    return AuthToken.objects.create(user=user)


@transaction.atomic
def account_register(*, username: str, password: str, email: str = "") -> tuple[AuthToken, str]:
    user = get_user_model().objects.create_user(username=username, password=password, email=email)
    return issue_token(user)


def token_obtain(*, request, username: str, password: str) -> tuple[AuthToken, str]:
    """A new token for the account, one per sign-in (a device, a bot), each revoked on its own. ``request`` is
    Django's: the sign-in limits count the failure against the username and the client's address."""
    user = authenticate(request, username=username, password=password)
    if user is None:
        if getattr(request, "axes_locked_out", False):  # refused before the password was even looked at
            raise Throttled(wait=retry_after(), detail="Too many failed sign-ins for this account or from this "
                                                       "address.")
        raise BadCredentials("The username or password is wrong.")
    # A sign-in as the site's is one: the account's last_login, and its failed sign-ins forgotten (django-axes).
    user_logged_in.send(sender=user.__class__, request=request, user=user)
    return issue_token(user)


def tokens_of(user):
    """The user's tokens that have not expired, newest first."""
    return AuthToken.objects.filter(user=user, expiry__gt=timezone.now()).order_by("-created")


def token_revoke_current(*, user, auth) -> None:
    if not isinstance(auth, AuthToken):
        raise NotSignedInByToken("This request was not signed in with a token; there is none to revoke.")
    auth.delete()


def token_revoke(*, user, token_id: str) -> None:
    """Revoke one of the user's tokens by its id (its first 15 characters); someone else's is not found."""
    revoked, _ = AuthToken.objects.filter(user=user, token_key=token_id).delete()
    if not revoked:
        raise NotFound("You have no token with that id.")


def token_revoke_all(*, user) -> int:
    revoked, _ = AuthToken.objects.filter(user=user).delete()
    return revoked


def account_update(*, user, **changes):
    """The account's own fields (today its email address); the user as saved."""
    if changes:
        for name, value in changes.items():
            setattr(user, name, value)
        user.save(update_fields=list(changes))
    return user
