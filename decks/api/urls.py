from django.urls import path

from decks.api import views

urlpatterns = [
    path("cards/", views.CardSearchView.as_view(), name="card-search"),
    path("decks/", views.DeckListView.as_view(), name="deck-list"),
    # Before the slug routes: "import" is a reserved slug.
    path("decks/import/", views.DeckImportView.as_view(), name="deck-import"),
    path("decks/<slug:slug>/", views.DeckDetailView.as_view(), name="deck-detail"),
    path("decks/<slug:slug>/lock/", views.DeckLockView.as_view(), name="deck-lock"),
    path("decks/<slug:slug>/unlock/", views.DeckUnlockView.as_view(), name="deck-unlock"),
    path("decks/<slug:slug>/cards/", views.CardListView.as_view(), name="deck-cards"),
    path("decks/<slug:slug>/cards/<int:card_id>/", views.CardDetailView.as_view(), name="deck-card"),
    path("decks/<slug:slug>/effects/confirm/", views.EffectsConfirmView.as_view(), name="deck-effects-confirm"),
    path("decks/<slug:slug>/export/<str:export_format>/", views.DeckExportView.as_view(), name="deck-export"),
    path("decks/<slug:slug>/revisions/", views.RevisionListView.as_view(), name="deck-revisions"),
    path("decks/<slug:slug>/revisions/<int:number>/", views.RevisionDetailView.as_view(), name="deck-revision"),
    path("decks/<slug:slug>/revisions/<int:number>/diff/", views.RevisionDiffView.as_view(),
         name="deck-revision-diff"),
    path("decks/<slug:slug>/revisions/<int:number>/restore/", views.RevisionRestoreView.as_view(),
         name="deck-revision-restore"),
    path("decks/<slug:slug>/talk/", views.TalkView.as_view(), name="deck-talk"),
    path("decks/<slug:slug>/talk/<int:post_id>/", views.TalkPostView.as_view(), name="deck-talk-post"),
]
