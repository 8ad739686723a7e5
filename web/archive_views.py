"""The archive's public pages: home, the deck list, a deck, its print view, Recent Changes, designers and card
search. Anyone may read them; they only read, through `decks.selectors` (and `community.selectors`: whether you watch
a deck, which account a designer is), and every text a user wrote is escaped by
the templates (none is marked safe)."""

from __future__ import annotations

from django import forms
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

import dvorak_engine as engine
from community import selectors as community
from decks import selectors
from decks.exporters import FORMATS as EXPORT_FORMATS
from decks.exporters.printed_cards import printed_cards
from dvorak_core.deckdata import CARD_SET, DECK, STATUSES
from dvorak_core.errors import DomainError, NotFound

DECKS_PER_PAGE = 25
CARDS_PER_PAGE = 50
REVISIONS_PER_PAGE = 50
DESIGNERS_PER_PAGE = 100
RECENT_DECKS = 8

EXPORT_LABELS = {
    "json": "JSON",
    "mushcode": "MUSHcode",
    "lackey": "LackeyCCG",
    "apprentice": "Apprentice CSV",
    "print": "Print sheet (HTML)",
    "pdf": "PDF",
    "cod": "Cockatrice (.cod)",
}
STATUS_LABELS = {status: status or "uncategorised" for status in STATUSES}
KIND_LABELS = {DECK: "Deck", CARD_SET: "CCG card set"}


def _page(request, items, per_page: int):
    """The page `?page=` names (the last for a page past it, the first for nonsense), and the query string
    without `page`, so the page links keep the filters."""
    page = Paginator(items, per_page).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return page, query.urlencode()


def _deck_or_404(slug: str):
    try:
        return selectors.deck_get(slug=slug)
    except NotFound as error:
        raise Http404(error.message) from error


def deck_links(slug: str) -> dict[str, str]:
    """A deck's pages, by the paths the site gives them (talk, edit and history are the wiki's)."""
    base = reverse("web:deck", args=[slug])
    return {
        "page": base,
        "talk": f"{base}talk/",
        "edit": f"{base}edit/",
        "history": f"{base}history/",
        "print": reverse("web:deck-print", args=[slug]),
        "pdf": reverse("deck-export", kwargs={"slug": slug, "export_format": "pdf"}),
        "play": f"{reverse('web:lobby')}?deck={slug}",
    }


@require_GET
def home(request):
    return render(request, "web/archive/home.html", {
        "recent": selectors.deck_recently_changed(limit=RECENT_DECKS),
        "deck_count": selectors.deck_list().count(),
    })


class PlayersField(forms.ChoiceField):
    """The player counts the decks give, as numbers (a deck is found when its range holds the number chosen: "2-4"
    for 3), and any other whole number typed into the address; then each player text that reads as no range."""

    def valid_value(self, value) -> bool:
        return (value.isascii() and value.isdigit() and len(value) <= 4) or super().valid_value(value)


class DeckFilters(forms.Form):
    """The deck list's search and filters, from the query string; a value out of its choices is ignored."""

    q = forms.CharField(label="Search", required=False, max_length=200,
                        widget=forms.TextInput(attrs={"type": "search", "placeholder": "title, designer or text"}))
    status = forms.ChoiceField(required=False, choices=[("", "any")] + [
        (status, label) for status, label in STATUS_LABELS.items() if status])
    players = PlayersField(required=False, widget=forms.Select(attrs={"title": "Decks for this many players"}))
    kind = forms.ChoiceField(required=False, choices=[("", "any"), *KIND_LABELS.items()])
    locked = forms.ChoiceField(required=False, choices=[("", "any"), ("yes", "locked"), ("no", "under construction")])
    ruleset = forms.ChoiceField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        values = selectors.deck_filter_values()
        self.fields["players"].choices = [("", "any"), *((p, p) for p in values["players"])]
        self.fields["ruleset"].choices = [("", "any"), *((r, r) for r in values["rulesets"])]

    def selected(self) -> dict:
        self.is_valid()
        data = {name: value for name, value in self.cleaned_data.items() if value}
        return {
            "search": data.get("q", "").strip(),
            "status": data.get("status"),
            "players": data.get("players"),
            "kind": data.get("kind"),
            "locked": {"yes": True, "no": False}.get(data.get("locked", "")),
            "ruleset": data.get("ruleset"),
        }


@require_GET
def deck_list(request):
    form = DeckFilters(request.GET)
    selected = form.selected()
    decks = selectors.with_card_count(selectors.deck_list(**selected))  # by title; a search's best first
    page, query = _page(request, decks, DECKS_PER_PAGE)
    return render(request, "web/archive/deck_list.html", {
        "form": form,
        "page": page,
        "query": query,
        "filtered": any(value is not None and value != "" for value in selected.values()),
    })


@require_GET
def deck_detail(request, slug: str):
    deck = _deck_or_404(slug)
    cards = list(deck.cards.all())
    return render(request, "web/archive/deck_detail.html", {
        "deck": deck,
        "cards": cards,
        "special_rules": list(deck.special_rules.all()),
        "card_count": sum(card.copies for card in cards),
        "status_label": STATUS_LABELS.get(deck.status, deck.status),
        "kind_label": KIND_LABELS.get(deck.kind, deck.kind),
        "links": deck_links(deck.slug),
        "watching": community.is_watching(user=request.user, deck=deck),
        "plays_with_player_decks": plays_with_player_decks(deck),
        "exports": [
            (EXPORT_LABELS.get(name, name),
             reverse("deck-export", kwargs={"slug": deck.slug, "export_format": name}))
            for name in EXPORT_FORMATS
        ],
    })


def plays_with_player_decks(deck) -> bool:
    """Whether a game of this deck, made as its page's "Play against the computer" makes one (its own ruleset, that
    ruleset's own variant), is a CCG game, to which each player brings a player deck (Filibuster's sets)."""
    if deck.kind != CARD_SET:
        return False
    try:
        return engine.default_variant(deck.ruleset) == "ccg"
    except DomainError:  # a ruleset no longer served: the game is refused when made, saying so
        return False


@require_GET
def deck_print(request, slug: str):
    deck = _deck_or_404(slug)
    printed = [
        (card, copies, list(range(copies))) for card, copies in printed_cards(selectors.deck_data(deck))
    ]
    return render(request, "web/archive/deck_print.html", {
        "deck": deck,
        "printed": printed,
        "card_count": sum(card.copies for card in deck.cards.all()),
        "links": deck_links(deck.slug),
    })


@require_GET
def recent_changes(request):
    page, query = _page(request, selectors.revision_recent(), REVISIONS_PER_PAGE)
    return render(request, "web/archive/recent_changes.html", {"page": page, "query": query})


@require_GET
def designer_list(request):
    # A page at a time, as the other lists: an archive names its designers by the hundred.
    page, query = _page(request, selectors.designer_list(), DESIGNERS_PER_PAGE)
    return render(request, "web/archive/designer_list.html", {"page": page, "query": query})


@require_GET
def designer_detail(request, name: str):
    decks = list(selectors.designer_decks(name=name))
    if not decks:
        raise Http404(f"The archive names no designer {name!r}.")
    waiting = community.designer_claims_waiting(name=name)
    return render(request, "web/archive/designer_detail.html", {
        "name": name,
        "decks": decks,
        "account": community.designer_account(name=name),
        "waiting": waiting,
        "mine_waiting": any(claim.user_id == request.user.pk for claim in waiting),
    })


class CardFilters(forms.Form):
    q = forms.CharField(label="Search", required=False, max_length=200,
                        widget=forms.TextInput(attrs={"type": "search", "placeholder": "title or text"}))
    type = forms.ChoiceField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["type"].choices = [("", "any"), *((t, t) for t in selectors.card_types())]


@require_GET
def card_search(request):
    form = CardFilters(request.GET)
    form.is_valid()
    search = (form.cleaned_data.get("q") or "").strip()
    card_type = form.cleaned_data.get("type") or None
    page, query = _page(request, selectors.card_search(search=search, type=card_type), CARDS_PER_PAGE)
    return render(request, "web/archive/card_search.html", {
        "form": form,
        "page": page,
        "query": query,
        "search": search,
        "filtered": bool(search or card_type),
    })
