from django.urls import path

from games.api import views

urlpatterns = [
    path("games/", views.GameListView.as_view(), name="game-list"),
    path("games/<uuid:game_id>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<uuid:game_id>/join/", views.GameJoinView.as_view(), name="game-join"),
    path("games/<uuid:game_id>/start/", views.GameStartView.as_view(), name="game-start"),
    path("games/<uuid:game_id>/leave/", views.GameLeaveView.as_view(), name="game-leave"),
    path("games/<uuid:game_id>/events/", views.GameEventsView.as_view(), name="game-events"),
    path("games/<uuid:game_id>/commands/", views.GameCommandView.as_view(), name="game-commands"),
]
urlpatterns.append(path("games/<uuid:game_id>/mush/", views.GameMushView.as_view(), name="game-mush"))
urlpatterns.append(path("games/<uuid:game_id>/publish/", views.GamePublishView.as_view(), name="game-publish"))
urlpatterns.append(path("games/<uuid:game_id>/moves/", views.GameMovesView.as_view(), name="game-moves"))
urlpatterns.append(path("games/<uuid:game_id>/rematch/", views.GameRematchView.as_view(), name="game-rematch"))
urlpatterns.append(path("games/<uuid:game_id>/bots/", views.GameBotsView.as_view(), name="game-bots"))
