"""Tickets: what a browser puts in a websocket's or an ``EventSource``'s URL, which cannot carry a header.

A ticket is signed by the server (Django's ``TimestampSigner``), names its user and a random nonce, and opens one
websocket or one stream, once, within ``TICKET_MAX_AGE`` seconds. Spending it records the nonce (``SpentTicket``),
so a URL copied out of a log, a proxy or a browser's history opens nothing, even within that minute.
"""

from __future__ import annotations

import secrets
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import SpentTicket

TICKET_SALT = "dvorak.websocket-ticket"
TICKET_MAX_AGE = 60
# A spent nonce is kept this long: past it, its ticket has expired anyway and is refused for that.
KEEP_SPENT = timedelta(seconds=2 * TICKET_MAX_AGE)
_pruned_at = 0.0  # when this process last deleted the spent nonces past KEEP_SPENT (time.monotonic)


def make_ticket(user) -> str:
    return signing.TimestampSigner(salt=TICKET_SALT).sign(f"{user.pk}.{secrets.token_hex(12)}")


def spend_ticket(ticket: str):
    """The active user a ticket names, spending it; None for a ticket that is forged, expired or already spent."""
    try:
        value = signing.TimestampSigner(salt=TICKET_SALT).unsign(ticket, max_age=TICKET_MAX_AGE)
    except signing.BadSignature:  # SignatureExpired among them
        return None
    user_id, _, nonce = value.partition(".")
    if not nonce or not user_id.isdigit():
        return None  # signed, but not by this version of the service
    now = timezone.now()
    try:
        with transaction.atomic():
            SpentTicket.objects.create(nonce=nonce, spent_at=now)
    except IntegrityError:
        return None
    global _pruned_at
    if time.monotonic() - _pruned_at > TICKET_MAX_AGE:  # at most once a minute a process, not at every opening
        _pruned_at = time.monotonic()
        SpentTicket.objects.filter(spent_at__lt=now - KEEP_SPENT).delete()
    return get_user_model().objects.filter(pk=int(user_id), is_active=True).first()
