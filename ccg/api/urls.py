from django.urls import path

from ccg.api import views

urlpatterns = [
    path("decks/<slug:slug>/versions/", views.VersionListView.as_view(), name="card-set-versions"),
    path("decks/<slug:slug>/versions/<int:number>/", views.VersionDetailView.as_view(), name="card-set-version"),
    path("decks/<slug:slug>/register/", views.RegisterView.as_view(), name="card-set-register"),
    path("decks/<slug:slug>/changes/", views.ChangeListView.as_view(), name="card-set-changes"),
    path("decks/<slug:slug>/changes/<int:change_id>/", views.ChangeDetailView.as_view(), name="card-set-change"),
    path("decks/<slug:slug>/changes/<int:change_id>/object/", views.ChangeObjectView.as_view(),
         name="card-set-change-object"),
    path("decks/<slug:slug>/changes/<int:change_id>/accept/", views.ChangeAnswerView.as_view(),
         name="card-set-change-accept"),
    path("player-decks/", views.PlayerDeckListView.as_view(), name="player-deck-list"),
    # Before the id routes, though "import" is no id anyway.
    path("player-decks/import/", views.PlayerDeckImportView.as_view(), name="player-deck-import"),
    path("player-decks/check/", views.PlayerDeckCheckView.as_view(), name="player-deck-check"),
    path("player-decks/<int:player_deck_id>/export/<str:export_format>/", views.PlayerDeckExportView.as_view(),
         name="player-deck-export"),
    path("player-decks/<int:player_deck_id>/", views.PlayerDeckDetailView.as_view(), name="player-deck-detail"),
    path("player-decks/<int:player_deck_id>/update/", views.PlayerDeckUpdateView.as_view(),
         name="player-deck-update"),
    path("notifications/", views.NotificationListView.as_view(), name="notification-list"),
    path("notifications/read/", views.NotificationReadView.as_view(), name="notification-read"),
]
