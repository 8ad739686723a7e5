from django.urls import path

from web import archive_views, ccg_views, community_views, feeds, play_views, views, wiki_views

app_name = "web"

urlpatterns = [
    path("accounts/sign-up/", views.sign_up, name="sign-up"),
    path("accounts/sign-in/", views.SignInView.as_view(), name="sign-in"),
    path("accounts/sign-out/", views.SignOutView.as_view(), name="sign-out"),
    path("accounts/password-reset/", views.password_reset, name="password-reset"),
    path("accounts/password-reset/sent/", views.password_reset_done, name="password-reset-done"),
    path("accounts/reset/<uidb64>/<token>/", views.password_reset_confirm, name="password-reset-confirm"),
    path("accounts/reset/done/", views.password_reset_complete, name="password-reset-complete"),
    # play
    path("play/", play_views.lobby, name="lobby"),
    path("play/<uuid:game_id>/", play_views.table, name="table"),
    path("play/<uuid:game_id>/watch/state/", play_views.watch_state, name="watch-state"),
    path("play/<uuid:game_id>/watch/events/", play_views.watch_events, name="watch-events"),
    # end play
    # archive
    path("", archive_views.home, name="home"),
    path("decks/", archive_views.deck_list, name="deck-list"),
    path("decks/<slug:slug>/", archive_views.deck_detail, name="deck"),
    path("decks/<slug:slug>/print/", archive_views.deck_print, name="deck-print"),
    path("recent-changes/", archive_views.recent_changes, name="recent-changes"),
    path("designers/", archive_views.designer_list, name="designers"),
    # Before the designer's page, whose name may hold a slash.
    path("designers/<path:name>/feed/", feeds.DesignerFeed(), name="designer-feed"),
    path("designers/<path:name>/claim/", community_views.designer_claim, name="designer-claim"),
    path("designers/<path:name>/", archive_views.designer_detail, name="designer"),
    path("cards/", archive_views.card_search, name="card-search"),
    # end archive
    # wiki
    path("decks/<slug:slug>/talk/", wiki_views.deck_talk, name="deck-talk"),
    path("decks/<slug:slug>/talk/<int:post_id>/hide/", wiki_views.deck_talk_hide, name="deck-talk-hide"),
    path("decks/<slug:slug>/edit/", wiki_views.deck_edit, name="deck-edit"),
    path("decks/<slug:slug>/history/", wiki_views.deck_history, name="deck-history"),
    path("decks/<slug:slug>/history/<int:number>/", wiki_views.deck_revision, name="deck-revision"),
    # end wiki
    # community: watching, notices, feeds, people
    path("decks/<slug:slug>/watch/", community_views.deck_watch, name="deck-watch"),
    path("decks/<slug:slug>/history/feed/", feeds.DeckHistoryFeed(), name="deck-history-feed"),
    path("recent-changes/feed/", feeds.RecentChangesFeed(), name="recent-changes-feed"),
    path("watchlist/", community_views.watchlist, name="watchlist"),
    path("notifications/", community_views.notifications, name="notifications"),
    path("notifications/read/", community_views.notifications_read, name="notifications-read"),
    path("users/<str:name>/", community_views.user_page, name="user"),
    # end community
    # print
    # end print
    # ccg
    path("decks/<slug:slug>/build/", ccg_views.deck_builder, name="deck-build"),
    path("decks/<slug:slug>/versions/", ccg_views.card_set_versions, name="card-set-versions"),
    path("player-decks/", ccg_views.player_deck_list, name="player-decks"),
    path("player-decks/<int:player_deck_id>/", ccg_views.player_deck, name="player-deck"),
    # end ccg
]
