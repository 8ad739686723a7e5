"""django-axes' middleware, answering a locked-out sign-in the same way whether Django runs the request in sync
(gunicorn's WSGI workers) or async mode (the ASGI servers): axes' own async path hands the lockout callable its
arguments in another order than its sync path."""

from asgiref.sync import sync_to_async
from axes.helpers import get_lockout_response
from axes.middleware import AxesMiddleware
from django.conf import settings


class SignInLimitMiddleware(AxesMiddleware):
    async def __acall__(self, request):
        response = await self.get_response(request)
        if settings.AXES_ENABLED and getattr(request, "axes_locked_out", None):
            credentials = getattr(request, "axes_credentials", None)
            response = await sync_to_async(get_lockout_response, thread_sensitive=True)(request, response,
                                                                                        credentials)
        return response
