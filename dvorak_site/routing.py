"""Websocket routes, gathered from the apps that serve them."""

from games.routing import websocket_urlpatterns as game_routes

websocket_urlpatterns = [*game_routes]
