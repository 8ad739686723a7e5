from django.urls import path

from dvorak_site.api import streams, views

urlpatterns = [
    path("auth/register/", views.RegisterView.as_view(), name="auth-register"),
    path("auth/token/", views.TokenView.as_view(), name="auth-token"),
    path("auth/tokens/", views.TokenListView.as_view(), name="auth-tokens"),
    path("auth/tokens/<str:token_id>/", views.TokenDetailView.as_view(), name="auth-token-detail"),
    path("auth/ticket/", views.TicketView.as_view(), name="auth-ticket"),
    path("health/", views.HealthView.as_view(), name="health"),
    path("health/live/", views.LiveView.as_view(), name="health-live"),
    path("health/ready/", views.ReadyView.as_view(), name="health-ready"),
    # Served live by the ASGI side (dvorak_site/streams.py), which asks these views first whether the stream opens.
    path("account/", views.AccountView.as_view(), name="account"),
    path("account/stream/", streams.AccountStreamView.as_view(), name="account-stream"),
    path("games/<uuid:game_id>/stream/", streams.GameStreamView.as_view(), name="game-stream"),
]
