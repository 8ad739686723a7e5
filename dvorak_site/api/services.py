"""Accounts: the use cases behind the register, token and ticket endpoints."""

from django.contrib.auth import authenticate, get_user_model
from django.db import transaction
from rest_framework.authtoken.models import Token

from dvorak_core.errors import DomainError


class BadCredentials(DomainError):
    code, status = "not_authenticated", 401


@transaction.atomic
def account_register(*, username: str, password: str) -> Token:
    user = get_user_model().objects.create_user(username=username, password=password)
    return Token.objects.create(user=user)


def token_obtain(*, username: str, password: str) -> Token:
    user = authenticate(username=username, password=password)
    if user is None:
        raise BadCredentials("The username or password is wrong.")
    token, _ = Token.objects.get_or_create(user=user)
    return token
