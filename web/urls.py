from django.urls import path

from web import play_views, views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/sign-up/", views.sign_up, name="sign-up"),
    path("accounts/sign-in/", views.SignInView.as_view(), name="sign-in"),
    path("accounts/sign-out/", views.SignOutView.as_view(), name="sign-out"),
    # play
    path("play/", play_views.lobby, name="lobby"),
    path("play/<uuid:game_id>/", play_views.table, name="table"),
    path("play/<uuid:game_id>/watch/state/", play_views.watch_state, name="watch-state"),
    path("play/<uuid:game_id>/watch/events/", play_views.watch_events, name="watch-events"),
    # end play
]
