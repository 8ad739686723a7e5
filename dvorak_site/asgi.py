"""The ASGI application: HTTP goes to Django (ordinary game commands answered before it, games/api/fast.py; the
two streams' GETs kept open by their own consumers, dvorak_site/streams.py), websockets to the Channels consumers."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dvorak_site.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up first)

from dvorak_site.routing import websocket_urlpatterns  # noqa: E402
from dvorak_site.startup import settle  # noqa: E402
from dvorak_site.streams import streams_before  # noqa: E402
from dvorak_site.wsauth import origin_validator  # noqa: E402
from games.api.fast import CommandFastPath  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": CommandFastPath(streams_before(django_asgi_app)),
        "websocket": origin_validator(URLRouter(websocket_urlpatterns)),
    }
)

settle()
