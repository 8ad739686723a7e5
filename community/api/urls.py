from django.urls import path

from community.api import views

urlpatterns = [
    path("decks/<slug:slug>/watch/", views.DeckWatchView.as_view(), name="deck-watch"),
    path("watchlist/", views.WatchlistView.as_view(), name="watchlist"),
]
