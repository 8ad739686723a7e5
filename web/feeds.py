"""The archive's Atom feeds (Django's syndication framework): Recent Changes, one deck's history and one designer's
decks. Each entry is a revision, linking its page on the site (the diff it made); its summary is escaped HTML, as
Atom's `type="html"` is read."""

from __future__ import annotations

from django.contrib.syndication.views import Feed
from django.http import Http404
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import escape

from decks import selectors
from decks.models import Deck, Revision

# The newest revisions a feed holds.
FEED_ITEMS = 50


class RevisionFeed(Feed):
    feed_type = Atom1Feed

    def get_feed(self, obj, request):
        feed = super().get_feed(obj, request)
        for item in feed.items:  # the framework makes an entry's link absolute, but not its author's
            if item.get("author_link"):
                item["author_link"] = request.build_absolute_uri(item["author_link"])
        return feed

    def item_title(self, revision: Revision) -> str:
        return f"{revision.deck.title}: revision {revision.number}"

    def item_description(self, revision: Revision) -> str:
        who = revision.author.get_username() if revision.author else "the archive"
        return f"<p>{escape(revision.summary or '(no summary)')}</p><p>By {escape(who)}.</p>"

    def item_link(self, revision: Revision) -> str:
        return reverse("web:deck-revision", args=[revision.deck.slug, revision.number])

    def item_author_name(self, revision: Revision) -> str:
        return revision.author.get_username() if revision.author else "the archive"

    def item_author_link(self, revision: Revision) -> str | None:
        return reverse("web:user", args=[revision.author.get_username()]) if revision.author else None

    def item_pubdate(self, revision: Revision):
        return revision.created_at

    def item_updateddate(self, revision: Revision):
        return revision.created_at


class RecentChangesFeed(RevisionFeed):
    title = "Dvorak: recent changes"
    subtitle = "Every deck's revisions, newest first."

    def link(self) -> str:
        return reverse("web:recent-changes")

    def items(self):
        return selectors.revision_recent()[:FEED_ITEMS]


class DeckHistoryFeed(RevisionFeed):
    def get_object(self, request, slug: str) -> Deck:
        deck = Deck.objects.filter(slug=slug).first()
        if deck is None:
            raise Http404(f"There is no deck {slug!r}.")
        return deck

    def title(self, deck: Deck) -> str:
        return f"Dvorak: history of {deck.title}"

    def subtitle(self, deck: Deck) -> str:
        return f"The revisions of {deck.title}, newest first."

    def link(self, deck: Deck) -> str:
        return reverse("web:deck-history", args=[deck.slug])

    def items(self, deck: Deck):
        return selectors.revision_recent().filter(deck=deck)[:FEED_ITEMS]


class DesignerFeed(RevisionFeed):
    def get_object(self, request, name: str) -> str:
        if not selectors.designer_decks(name=name).exists():
            raise Http404(f"The archive names no designer {name!r}.")
        return name

    def title(self, name: str) -> str:
        return f"Dvorak: decks by {name}"

    def subtitle(self, name: str) -> str:
        return f"The revisions of the decks that name {name} among their designers, newest first."

    def link(self, name: str) -> str:
        return reverse("web:designer", args=[name])

    def items(self, name: str):
        decks = list(selectors.designer_decks(name=name).values_list("pk", flat=True))
        return selectors.revision_recent().filter(deck__in=decks)[:FEED_ITEMS]
