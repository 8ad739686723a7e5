"""The wiki's pages for a deck: its talk page, its edit form and its history with word-level diffs.

Thin, as the API's views are: read through `decks.selectors`, write through `decks.services`. Anyone reads;
signed-in players post and edit unlocked decks; curators hide talk posts. An edit carries the revision it was
made from, and a save after someone else's is refused with what changed meanwhile, never laid over it.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from decks import selectors, services
from decks.history import deck_word_diff
from decks.models import Deck, TalkPost
from dvorak_core.deckdata import DeckData
from dvorak_core.errors import DeckLocked, DomainError, NotFound

# --- shared -------------------------------------------------------------------------------------------------


def _deck(slug: str, *, contents: bool = False) -> Deck:
    """The deck a wiki page is of; with its cards and Special Rules only for the pages that show them."""
    try:
        return selectors.deck_get(slug=slug, contents=contents)
    except NotFound as error:
        raise Http404(error.message) from error


# --- talk ---------------------------------------------------------------------------------------------------


def _lines(value: Any) -> Any:
    # Browsers send a textarea's line breaks as CRLF; the archive keeps them as LF, so an untouched card is equal.
    return value.replace("\r\n", "\n") if isinstance(value, str) else value


class TalkForm(forms.Form):
    body = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), strip=False, max_length=20000)
    reply_to = forms.IntegerField(required=False, widget=forms.HiddenInput)


class HideForm(forms.Form):
    reason = forms.CharField(max_length=300)


def _threads(posts: list[TalkPost]) -> list[tuple[TalkPost, list[TalkPost]]]:
    """Posts in order, each with its replies (one level: a reply to a reply joins the same thread)."""
    by_id = {post.pk: post for post in posts}

    def root(post: TalkPost) -> TalkPost:
        while post.reply_to_id in by_id:
            post = by_id[post.reply_to_id]
        return post

    threads: dict[int, tuple[TalkPost, list[TalkPost]]] = {}
    for post in posts:
        top = root(post)
        thread = threads.setdefault(top.pk, (top, []))
        if top is not post:
            thread[1].append(post)
    return list(threads.values())


@require_http_methods(["GET", "POST"])
def deck_talk(request: HttpRequest, slug: str) -> HttpResponse:
    deck = _deck(slug)
    form = TalkForm(request.POST or None)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.path, reverse("web:sign-in"))
        if form.is_valid():
            try:
                post = services.talk_post(slug=deck.slug, author=request.user, **form.cleaned_data)
            except DomainError as error:
                form.add_error(None, error.message)
            else:
                return redirect(f"{request.path}#post-{post.pk}")
    return render(request, "web/wiki/talk.html", {
        "deck": deck,
        "threads": _threads(list(selectors.talk_list(deck=deck))),
        "form": form,
        "curator": services.is_curator(request.user),
        "tab": "talk",
    }, status=400 if form.errors else 200)


@require_POST
def deck_talk_hide(request: HttpRequest, slug: str, post_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("web:deck-talk", args=[slug]), reverse("web:sign-in"))
    deck = _deck(slug)
    form = HideForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        services.talk_hide(slug=deck.slug, post_id=post_id, actor=request.user, reason=reason)
    except DomainError as error:
        return render(request, "web/wiki/refused.html", {"deck": deck, "message": error.message},
                      status=error.status)
    return redirect(f"{reverse('web:deck-talk', args=[deck.slug])}#post-{post_id}")


# --- edit ---------------------------------------------------------------------------------------------------


class DeckEditForm(forms.Form):
    title = forms.CharField(max_length=200)
    kind = forms.ChoiceField(choices=Deck.KIND_CHOICES)
    designers = forms.CharField(required=False, help_text="One name a line.",
                                widget=forms.Textarea(attrs={"rows": 2}))
    date = forms.CharField(required=False, max_length=100)
    players = forms.CharField(required=False, max_length=50)
    status = forms.ChoiceField(choices=Deck.STATUS_CHOICES, required=False)
    ruleset = forms.CharField(max_length=100)
    description = forms.CharField(required=False, strip=False, widget=forms.Textarea(attrs={"rows": 4}))
    summary = forms.CharField(max_length=300, label="Edit summary",
                              help_text="What you changed and why; it is shown in the deck's history.")
    base_revision = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def deck_values(self) -> dict[str, Any]:
        values = {name: _lines(self.cleaned_data[name]) for name in services.DECK_FIELDS}
        values["designers"] = [line.strip() for line in values["designers"].splitlines() if line.strip()]
        return values


class RuleForm(forms.Form):
    title = forms.CharField(required=False, max_length=200)
    text = forms.CharField(required=False, strip=False, widget=forms.Textarea(attrs={"rows": 3}))
    params = forms.JSONField(required=False, help_text='Rule parameters, e.g. {"hand_limit": 7}.',
                             widget=forms.TextInput)
    # The rule's confirmed effect, carried through the page unchanged (curators edit it in the admin or the API).
    effect = forms.JSONField(required=False, widget=forms.HiddenInput)

    def values(self) -> dict[str, Any] | None:
        data = self.cleaned_data
        if not data or self.cleaned_data.get("DELETE") or not (data.get("text") or "").strip():
            return None
        return {"title": data["title"], "text": _lines(data["text"]), "params": data.get("params") or {},
                "effect": data.get("effect")}


class CardForm(forms.Form):
    id = forms.IntegerField(required=False, widget=forms.HiddenInput)
    title = forms.CharField(required=False, max_length=200)
    type = forms.CharField(max_length=50, initial="Thing")
    copies = forms.IntegerField(min_value=1, initial=1)
    text = forms.CharField(required=False, strip=False, widget=forms.Textarea(attrs={"rows": 2}))
    flavor = forms.CharField(required=False, strip=False, widget=forms.Textarea(attrs={"rows": 1}))
    corner_value = forms.CharField(required=False, max_length=50)
    creator = forms.CharField(required=False, max_length=100)
    stats = forms.JSONField(required=False, widget=forms.TextInput, help_text='e.g. {"Shoot": 1}')
    out_of_turn = forms.BooleanField(required=False, label="Out of turn")

    def values(self) -> dict[str, Any]:
        values = {name: _lines(self.cleaned_data.get(name)) for name in services.CARD_FIELDS}
        values["stats"] = values["stats"] or {}
        return values


RuleFormSet = forms.formset_factory(RuleForm, extra=1, can_delete=True)
CardFormSet = forms.formset_factory(CardForm, extra=2, can_delete=True)


def _initial(deck: Deck) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    fields = {name: getattr(deck, name) for name in services.DECK_FIELDS}
    fields["designers"] = "\n".join(deck.designers)
    fields["base_revision"] = deck.revision
    rules = [{"title": rule.title, "text": rule.text, "params": rule.params, "effect": rule.effect}
             for rule in deck.special_rules.all()]
    cards = [{"id": card.pk, **{name: getattr(card, name) for name in services.CARD_FIELDS}}
             for card in deck.cards.all()]
    return fields, rules, cards


def _edit_request(deck: Deck, form: DeckEditForm, rules: Any, cards: Any) -> dict[str, Any]:
    """What the filled form asks of the deck as it is now: its changed fields, its Special Rules when they differ,
    and the cards added, changed (only the values that differ) and removed."""
    current = {name: getattr(deck, name) for name in services.DECK_FIELDS}
    changes = {name: value for name, value in form.deck_values().items() if value != current[name]}
    wanted_rules = [values for rule in rules.forms if (values := rule.values()) is not None]
    have_rules = [{"title": r.title, "text": r.text, "params": r.params, "effect": r.effect}
                  for r in deck.special_rules.all()]
    if wanted_rules != have_rules:
        changes["special_rules"] = wanted_rules
    rows = {card.pk: card for card in deck.cards.all()}
    added, changed, removed = [], {}, []
    for card in cards.forms:
        data = card.cleaned_data
        if not data:
            continue
        card_id = data.get("id")
        if card_id is not None and card_id in rows:
            if data.get("DELETE"):
                removed.append(card_id)
                continue
            values = card.values()
            diff = {name: value for name, value in values.items() if value != getattr(rows[card_id], name)}
            if diff:
                changed[card_id] = diff
        elif not data.get("DELETE") and (data.get("title") or "").strip():
            values = card.values()
            if not values["out_of_turn"]:
                values.pop("out_of_turn")  # left unticked, it follows the card's text, as in the API
            added.append(values)
    return {"changes": changes, "added": added, "changed": changed, "removed": removed}


def _forms(deck: Deck, data: Any = None):
    fields, rules, cards = _initial(deck)
    return (DeckEditForm(data, initial=fields), RuleFormSet(data, initial=rules, prefix="rules"),
            CardFormSet(data, initial=cards, prefix="cards"))


@require_http_methods(["GET", "POST"])
def deck_edit(request: HttpRequest, slug: str) -> HttpResponse:
    deck = _deck(slug, contents=True)
    if not request.user.is_authenticated:
        return redirect_to_login(request.path, reverse("web:sign-in"))
    context: dict[str, Any] = {"deck": deck, "tab": "edit"}
    if deck.locked:
        context["message"] = ("This deck is locked: a curator has marked it finished, and it cannot be edited "
                              "until a curator unlocks it. Its talk page stays open.")
        return render(request, "web/wiki/locked.html", context, status=423 if request.method == "POST" else 200)
    form, rules, cards = _forms(deck, request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid() and rules.is_valid() and cards.is_valid():
            try:
                services.deck_edit(slug=deck.slug, author=request.user, summary=form.cleaned_data["summary"],
                                   base_revision=form.cleaned_data["base_revision"],
                                   **_edit_request(deck, form, rules, cards))
            except services.RevisionConflict as conflict:
                status = 409
                base = selectors.revision_deck(selectors.revision_get(deck=deck, number=conflict.base))
                now = selectors.revision_deck(selectors.revision_get(deck=deck, number=conflict.current))
                context["conflict"] = conflict
                context["conflict_diff"] = [s for s in deck_word_diff(base, now) if s.status != "same"]
                # Saving again is now a deliberate choice made having seen the other change.
                data = request.POST.copy()
                data["base_revision"] = str(conflict.current)
                form, rules, cards = _forms(deck, data)
            except DeckLocked as error:
                context["message"] = error.message
                return render(request, "web/wiki/locked.html", context, status=423)
            except DomainError as error:
                form.add_error(None, error.message)
            else:
                return redirect("web:deck-history", slug=deck.slug)
    context.update(form=form, rules=rules, cards=cards)
    return render(request, "web/wiki/edit.html", context, status=status)


# --- history ------------------------------------------------------------------------------------------------


def deck_history(request: HttpRequest, slug: str) -> HttpResponse:
    deck = _deck(slug)
    number, against = request.GET.get("number", ""), request.GET.get("against", "")
    if number.isdigit() and against.isdigit():  # the compare form: two revisions chosen
        older, newer = sorted((int(number), int(against)))
        return redirect(f"{reverse('web:deck-revision', args=[deck.slug, newer])}?against={older}")
    revisions = list(selectors.revision_list(deck=deck).order_by("-number"))
    return render(request, "web/wiki/history.html", {"deck": deck, "revisions": revisions, "tab": "history"})


def deck_revision(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    deck = _deck(slug)
    try:
        revision = selectors.revision_get(deck=deck, number=number)
        against_text = request.GET.get("against", "")
        against = int(against_text) if against_text.strip() else number - 1
        older = selectors.revision_get(deck=deck, number=against) if against >= 1 else None
    except ValueError:
        raise Http404("?against= names a revision by its number.") from None
    except NotFound as error:
        raise Http404(error.message) from error
    new = selectors.revision_deck(revision)
    if older is None:  # the first revision: everything in it is new
        sections = deck_word_diff(DeckData(slug=new.slug, title="", kind=new.kind), new)
    else:
        sections = deck_word_diff(selectors.revision_deck(older), new)
    changed = [section for section in sections if section.status != "same"]
    return render(request, "web/wiki/revision.html", {
        "deck": deck,
        "revision": revision,
        "older": older,
        "sections": changed,
        "unchanged": len(sections) - len(changed),
        "tab": "history",
    })
