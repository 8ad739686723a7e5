"""Websocket routes of the game server."""

websocket_urlpatterns: list = []
