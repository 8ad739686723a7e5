"""Websocket routes, gathered from the apps that serve them."""

from django.conf import settings
from django.urls import path

from games.routing import websocket_urlpatterns as game_routes

websocket_urlpatterns = [*game_routes]

if settings.BENCH_ENDPOINTS:
    from dvorak_site.api.bench import BroadcastConsumer

    websocket_urlpatterns.append(path("ws/bench/<int:group>/", BroadcastConsumer.as_asgi()))
