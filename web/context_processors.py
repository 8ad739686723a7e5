"""What every page's header needs: the signed-in user's unread notices, counted only when a page shows them."""

from __future__ import annotations

from django.utils.functional import SimpleLazyObject

from ccg.models import Notification


def notices(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notices": SimpleLazyObject(
        lambda: Notification.objects.filter(user=user, read_at__isnull=True).count())}
