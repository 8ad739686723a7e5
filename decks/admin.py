"""The Django admin as the online deck archive: decks with their cards and Special Rules, the wiki history
with diffs and restore, lock and unlock for curators, the talk page, and import and export.

The admin follows the API's rules: any staff member reads and edits unlocked decks, curators lock, unlock
and delete, and a locked deck's change view, inlines, delete and actions refuse to change it. Every save
goes through `decks.services`, the API's own functions: the same bounds and checks, the lock checked again under
the deck's row lock, and a revision recorded; what they refuse is shown in the form.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import models, transaction
from django.db.models import Sum
from django.forms.fields import InvalidJSONInput
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse

from decks import exporters, importers, selectors, services
from decks.history import render_text
from decks.models import Card, Deck, Revision, SpecialRule, TalkPost
from dvorak_core.effects import read_card, read_special_rule, suggestion
from dvorak_core.errors import DeckLocked, DomainError
from dvorak_core.storable import unstorable


def is_staff(request: HttpRequest) -> bool:
    return bool(request.user.is_active and request.user.is_staff)


def deck_is_locked(obj: Any) -> bool:
    deck = obj if isinstance(obj, Deck) else getattr(obj, "deck", None)
    # Read the lock from the database: the object in hand may be older than a curator's lock.
    return bool(deck and deck.pk and Deck.objects.filter(pk=deck.pk, locked=True).exists())


# The request attribute that carries a service's refusal to the second showing of the change form.
REFUSAL = "archive_refusal"
RULE_FIELDS = services.RULE_ROW_FIELDS


class Refused(Exception):
    """The archive's services refused what the change form sent."""

    def __init__(self, error: DomainError) -> None:
        super().__init__(error.message)
        self.error = error


class DeckForm(forms.ModelForm):
    """The deck's own fields; `refusal` is the services' reason for refusing what this form sent, shown on the
    field it names, or above the form."""

    refusal: DomainError | None = None
    # The revision the form was filled from: a save after someone else's is refused, not silently laid over it.
    base_revision = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields["base_revision"].initial = self.instance.revision

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.refusal is not None:
            field = next((name for name in self.refusal.details if name in self.fields), None)
            self.add_error(field, self.refusal.message)
        return cleaned


@dataclass
class InlineRows:
    """What an inline's rows ask of the deck: `kept` (every row that stays, in order, as values), `added` (the
    new rows' values), `edits` (row id → the values changed), `removed` (row ids), `changed` (anything at all)."""

    kept: list[dict[str, Any]] = field(default_factory=list)
    added: list[dict[str, Any]] = field(default_factory=list)
    edits: dict[int, dict[str, Any]] = field(default_factory=dict)
    removed: list[int] = field(default_factory=list)
    changed: bool = False


def inline_rows(formsets: list, model: type, fields: tuple[str, ...]) -> InlineRows:
    rows = InlineRows()
    formset = next((formset for formset in formsets if formset.model is model), None)
    if formset is None:
        return rows
    rows.changed = formset.has_changed()
    for form in formset.forms:
        existing = form.instance.pk is not None
        if form in formset.deleted_forms:
            if existing:
                rows.removed.append(form.instance.pk)
            continue
        if not existing and not form.has_changed():
            continue  # an extra row left empty
        # A box left as it was says nothing: a new card's `out_of_turn` then follows its text, as in the API.
        values = {name: form.cleaned_data[name] for name in fields
                  if name in form.cleaned_data and (name != "out_of_turn" or name in form.changed_data)}
        rows.kept.append(values)
        if not existing:
            rows.added.append(values)
        elif form.has_changed():
            rows.edits[form.instance.pk] = {name: values[name] for name in form.changed_data if name in values}
    return rows


class LockAwareInline(admin.TabularInline):
    """Rows of a locked deck cannot be added, changed or deleted; `obj` is the deck being edited."""

    extra = 0

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff(request)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff(request) and not deck_is_locked(obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff(request) and not deck_is_locked(obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff(request) and not deck_is_locked(obj)


class StorableJSONField(forms.JSONField):
    """JSON typed in a form (a card's stats, a deck's designers), where \\u0000 and a lone surrogate can be written:
    refused on the field, and shown again as typed, rather than failing when the row is written."""

    def to_python(self, value: Any) -> Any:
        converted = super().to_python(value)
        if fault := unstorable(converted):
            raise forms.ValidationError(f"{fault}, which cannot be stored.")
        return converted

    def bound_data(self, data: Any, initial: Any) -> Any:
        value = super().bound_data(data, initial)
        if not isinstance(value, InvalidJSONInput) and unstorable(value):
            return InvalidJSONInput(data)
        return value


STORABLE_JSON = {models.JSONField: {"form_class": StorableJSONField}}


def shown_suggestion(reading: Any) -> str:
    """The reader's suggestion as the admin shows it beside the confirmed effect: its JSON, and what it left unread."""
    text = json.dumps(suggestion(reading)["effects"], ensure_ascii=False)
    if reading.unread:
        text += " (unread: " + " / ".join(reading.unread) + ")"
    return text


class SpecialRuleInline(LockAwareInline):
    model = SpecialRule
    formfield_overrides = STORABLE_JSON
    fields = [*RULE_FIELDS, "suggested_effect"]
    readonly_fields = ["suggested_effect"]

    @admin.display(description="suggested effect (the reader's)")
    def suggested_effect(self, rule: SpecialRule) -> str:
        return shown_suggestion(read_special_rule(rule.title, rule.text)) if rule.pk else ""


class CardInline(LockAwareInline):
    model = Card
    formfield_overrides = STORABLE_JSON
    fields = [*services.CARD_ROW_FIELDS, "suggested_effect"]
    readonly_fields = ["suggested_effect"]

    @admin.display(description="suggested effect (the reader's)")
    def suggested_effect(self, card: Card) -> str:
        return shown_suggestion(read_card(card.title, card.type, card.text)) if card.pk else ""


class ImportForm(forms.Form):
    format = forms.ChoiceField(choices=[(name, name) for name in importers.FORMATS])
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 20, "cols": 100}), required=False,
                           strip=False, help_text="Paste a listing here, or upload a file below.")
    file = forms.FileField(required=False)
    slug = forms.SlugField(required=False, help_text="Only for a text that holds one deck.")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        upload = cleaned.get("file")
        if upload:
            try:
                cleaned["text"] = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError("The file is not UTF-8 text.") from None
        if not cleaned.get("text", "").strip():
            raise forms.ValidationError("Paste a listing or upload a file.")
        return cleaned


class TalkForm(forms.Form):
    body = forms.CharField(widget=forms.Textarea(attrs={"rows": 5, "cols": 80}), strip=False)
    reply_to = forms.IntegerField(required=False, widget=forms.HiddenInput)


def threaded(posts: list[TalkPost]) -> list[tuple[TalkPost, int]]:
    """Posts in reading order, each reply under the post it answers, with its depth."""
    replies: dict[int | None, list[TalkPost]] = {}
    for post in posts:
        replies.setdefault(post.reply_to_id, []).append(post)
    ordered: list[tuple[TalkPost, int]] = []

    def walk(parent: int | None, depth: int) -> None:
        for post in replies.get(parent, []):
            ordered.append((post, depth))
            walk(post.pk, depth + 1)

    walk(None, 0)
    return ordered


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ["title", "slug", "kind", "status", "players", "locked", "card_total", "revision", "updated_at"]
    list_filter = ["status", "kind", "players", "locked"]
    search_fields = ["title", "slug", "designers", "description"]
    readonly_fields = ["locked", "revision"]
    prepopulated_fields = {"slug": ["title"]}
    inlines = [SpecialRuleInline, CardInline]
    form = DeckForm
    formfield_overrides = STORABLE_JSON
    actions = ["lock_decks", "unlock_decks", "confirm_suggested_effects"]

    # --- who may do what ------------------------------------------------------------------------------

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_staff(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return is_staff(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff(request) and not deck_is_locked(obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return services.is_curator(request.user) and not deck_is_locked(obj)

    def has_curate_permission(self, request: HttpRequest) -> bool:
        return services.is_curator(request.user)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # A deck's slug is its address; it is chosen once.
        return [*self.readonly_fields, "slug"] if obj else list(self.readonly_fields)

    def get_prepopulated_fields(self, request: HttpRequest, obj: Any = None) -> dict[str, list[str]]:
        return {} if obj else dict(self.prepopulated_fields)

    def get_queryset(self, request: HttpRequest):
        return super().get_queryset(request).annotate(card_total_count=Sum("cards__copies"))

    @admin.display(description="cards", ordering="card_total_count")
    def card_total(self, deck: Deck) -> int:
        return deck.card_total_count or 0

    # --- saving through the services --------------------------------------------------------------------
    # The form and its inlines only validate what was typed; the deck is written by `services.deck_create` or
    # `services.deck_edit`, the API's own checks and history. When they refuse, the form is shown again, as it
    # was sent, with their reason.

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any):
        form = super().get_form(request, obj, change=change, **kwargs)
        refusal = getattr(request, REFUSAL, None)
        return type(form.__name__, (form,), {"refusal": refusal}) if refusal else form

    def changeform_view(self, request: HttpRequest, object_id: str | None = None, form_url: str = "",
                        extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except Refused as refused:
            # The refused save's transaction is rolled back; the second pass shows the form with the reason.
            setattr(request, REFUSAL, refused.error)
            return super().changeform_view(request, object_id, form_url, extra_context)

    def save_model(self, request: HttpRequest, obj: Deck, form: forms.ModelForm, change: bool) -> None:
        # Nothing yet: the deck is written with its Special Rules and cards, by the service, in save_related.
        pass

    def save_related(self, request: HttpRequest, form: forms.ModelForm, formsets: list, change: bool) -> None:
        rules = inline_rows(formsets, SpecialRule, RULE_FIELDS)
        cards = inline_rows(formsets, Card, services.CARD_ROW_FIELDS)
        try:
            if change:
                changes = {name: form.cleaned_data[name] for name in form.changed_data if name in services.DECK_FIELDS}
                if rules.changed:
                    changes["special_rules"] = rules.kept
                services.deck_edit(slug=form.instance.slug, author=request.user, changes=changes, added=cards.added,
                                   changed=cards.edits, removed=cards.removed,
                                   base_revision=form.cleaned_data.get("base_revision"))
            else:
                values = {name: form.cleaned_data.get(name) for name in ("slug", *services.DECK_FIELDS)}
                deck = services.deck_create(
                    author=request.user,
                    data=services.deck_from_values({**values, "special_rules": rules.kept, "cards": cards.added}),
                )
                form.instance.pk = deck.pk
        except DeckLocked as error:
            raise PermissionDenied(error.message) from error
        except services.RevisionConflict as error:
            raise Refused(DomainError(
                f"{error.message} Nothing was saved. Compare revision {error.base} with {error.current} in the "
                "history, then open the deck again and make your change there.", code=error.code,
                details=error.details)) from error
        except DomainError as error:
            raise Refused(error) from error

    def construct_change_message(self, request: HttpRequest, form: forms.ModelForm, formsets: list, add: bool):
        # The deck's own history says what changed; the admin's log notes which parts of the form were saved.
        if add:
            return [{"added": {}}]
        parts = [*form.changed_data, *(formset.prefix for formset in formsets if formset.has_changed())]
        return [{"changed": {"fields": parts}}]

    def get_deleted_objects(self, objs, request: HttpRequest):
        # A deck's cards, rules, revisions and talk go with it; their own admins are read-only on purpose,
        # so they must not count as permissions the curator lacks.
        deleted, model_count, _, protected = super().get_deleted_objects(objs, request)
        return deleted, model_count, set(), protected

    def delete_model(self, request: HttpRequest, obj: Deck) -> None:
        self._delete(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        # All or nothing: one locked deck in the selection refuses the whole bulk delete.
        locked = list(queryset.filter(locked=True).values_list("slug", flat=True))
        if locked:
            raise PermissionDenied(f"Locked decks cannot be deleted: {', '.join(locked)}.")
        with transaction.atomic():
            for deck in queryset:
                self._delete(request, deck)

    def _delete(self, request: HttpRequest, deck: Deck) -> None:
        try:
            services.deck_delete(slug=deck.slug, actor=request.user)
        except DomainError as error:
            raise PermissionDenied(error.message) from error

    # --- actions -----------------------------------------------------------------------------------------

    @admin.action(description="Lock the selected decks", permissions=["curate"])
    def lock_decks(self, request: HttpRequest, queryset) -> None:
        self._set_locks(request, queryset, services.deck_lock, "Locked")

    @admin.action(description="Unlock the selected decks", permissions=["curate"])
    def unlock_decks(self, request: HttpRequest, queryset) -> None:
        self._set_locks(request, queryset, services.deck_unlock, "Unlocked")

    @admin.action(description="Confirm the reader's suggested effects", permissions=["change"])
    def confirm_suggested_effects(self, request: HttpRequest, queryset) -> None:
        """Each selected deck's cards and Special Rules whose suggestion is understood in full and that have no
        confirmed effect get it (`services.deck_effects_confirm`, a revision per deck that changed)."""
        for slug in queryset.values_list("slug", flat=True):
            try:
                confirmed = services.deck_effects_confirm(slug=slug, author=request.user)
            except DomainError as error:
                self.message_user(request, f"{slug}: {error.message}", messages.ERROR)
                continue
            self.message_user(request, f"{slug}: confirmed {len(confirmed.cards)} card(s) and "
                              f"{len(confirmed.special_rules)} Special Rule(s).", messages.SUCCESS)

    def _set_locks(self, request: HttpRequest, queryset, change, done: str) -> None:
        slugs = list(queryset.values_list("slug", flat=True))
        for slug in slugs:
            change(slug=slug, actor=request.user)
        self.message_user(request, f"{done}: {', '.join(slugs)}.", messages.SUCCESS)

    # --- the archive's own pages ----------------------------------------------------------------------

    def get_urls(self):
        own = [
            path("import/", self.admin_site.admin_view(self.import_view), name="decks_deck_import"),
            path("<path:object_id>/revisions/", self.admin_site.admin_view(self.revisions_view),
                 name="decks_deck_revisions"),
            path("<path:object_id>/revisions/<int:number>/", self.admin_site.admin_view(self.revision_view),
                 name="decks_deck_revision"),
            path("<path:object_id>/revisions/<int:number>/restore/",
                 self.admin_site.admin_view(self.restore_view), name="decks_deck_restore"),
            path("<path:object_id>/talk/", self.admin_site.admin_view(self.talk_view), name="decks_deck_talk"),
        ]
        return own + super().get_urls()

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "", extra_context=None):
        extra = {"export_formats": exporters.FORMATS, **(extra_context or {})}
        return super().change_view(request, object_id, form_url, extra_context=extra)

    def _deck(self, request: HttpRequest, object_id: str) -> Deck:
        if not self.has_view_permission(request):
            raise PermissionDenied
        return get_object_or_404(Deck, pk=object_id)

    def _page(self, request: HttpRequest, template: str, deck: Deck | None, title: str, **context: Any):
        base = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": deck,
            "deck": deck,
            "title": title,
        }
        return TemplateResponse(request, f"admin/decks/deck/{template}", {**base, **context})

    def revisions_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        deck = self._deck(request, object_id)
        revisions = list(selectors.revision_list(deck=deck))
        return self._page(request, "revisions.html", deck, f"History of {deck.title}", revisions=revisions)

    def revision_view(self, request: HttpRequest, object_id: str, number: int) -> HttpResponse:
        deck = self._deck(request, object_id)
        revision = selectors.revision_get(deck=deck, number=number) if deck else None
        against = request.GET.get("against")
        diff, older = "", None
        try:
            if against or number > 1:
                older, _, diff = selectors.revision_diff(
                    deck=deck, number=number, against=int(against) if against else None
                )
        except (DomainError, ValueError) as error:
            self.message_user(request, str(error), messages.ERROR)
        return self._page(
            request,
            "revision.html",
            deck,
            f"{deck.title}: revision {number}",
            revision=revision,
            text=render_text(selectors.revision_deck(revision)),
            diff=diff,
            older=older,
            numbers=[r.number for r in selectors.revision_list(deck=deck)],
            can_restore=self.has_change_permission(request, deck) and number != deck.revision,
        )

    def restore_view(self, request: HttpRequest, object_id: str, number: int) -> HttpResponse:
        deck = self._deck(request, object_id)
        if request.method != "POST":
            return HttpResponseRedirect(reverse("admin:decks_deck_revision", args=[deck.pk, number]))
        if not self.has_change_permission(request, deck):
            raise PermissionDenied
        try:
            services.revision_restore(slug=deck.slug, number=number, author=request.user)
        except DeckLocked as error:
            raise PermissionDenied(error.message) from error
        self.message_user(request, f"Restored revision {number} as a new revision.", messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:decks_deck_revisions", args=[deck.pk]))

    def talk_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        deck = self._deck(request, object_id)
        form = TalkForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                services.talk_post(slug=deck.slug, author=request.user, **form.cleaned_data)
            except DomainError as error:
                form.add_error(None, error.message)
            else:
                return HttpResponseRedirect(reverse("admin:decks_deck_talk", args=[deck.pk]))
        posts = threaded(list(selectors.talk_list(deck=deck)))
        return self._page(request, "talk.html", deck, f"Talk: {deck.title}", posts=posts, form=form,
                          curator=services.is_curator(request.user))

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = ImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            try:
                decks = services.deck_import(
                    author=request.user,
                    text=form.cleaned_data["text"],
                    format=form.cleaned_data["format"],
                    slug=form.cleaned_data["slug"] or None,
                )
            except DomainError as error:
                form.add_error(None, error.message)
            else:
                self.message_user(
                    request, f"Imported {', '.join(deck.title for deck in decks)}.", messages.SUCCESS
                )
                return HttpResponseRedirect(reverse("admin:decks_deck_changelist"))
        return self._page(request, "import.html", None, "Import decks", form=form)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Listed for reading; changes go through the deck's own pages, where locks and history apply."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_staff(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff(request)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Card)
class CardAdmin(ReadOnlyAdmin):
    list_display = ["title", "deck", "type", "copies", "corner_value", "creator"]
    list_filter = ["type"]
    search_fields = ["title", "text", "deck__title"]


@admin.register(SpecialRule)
class SpecialRuleAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "deck", "position"]
    search_fields = ["title", "text", "deck__title"]


@admin.register(Revision)
class RevisionAdmin(ReadOnlyAdmin):
    list_display = ["deck", "number", "author", "created_at", "summary"]
    search_fields = ["deck__title", "summary"]
    list_filter = ["created_at"]


@admin.register(TalkPost)
class TalkPostAdmin(ReadOnlyAdmin):
    """Talk posts; a post a curator hid is read, and searched, by curators only."""

    list_display = ["deck", "author", "created_at", "short_body", "hidden_at"]
    search_fields = ["deck__title", "body"]

    def get_list_display(self, request: HttpRequest):
        if services.is_curator(request.user):
            return [*self.list_display, "hidden_by", "hidden_reason"]
        return [name if name != "short_body" else "shown_body" for name in self.list_display]

    def get_search_fields(self, request: HttpRequest):
        return self.search_fields if services.is_curator(request.user) else ["deck__title"]

    def get_fields(self, request: HttpRequest, obj: Any = None):
        fields = super().get_fields(request, obj)
        if obj is not None and obj.hidden and not services.is_curator(request.user):
            return [name for name in fields if name not in ("body", "hidden_reason")]
        return fields

    @admin.display(description="post")
    def short_body(self, post: TalkPost) -> str:
        # A plain string: the changelist escapes it like any other value.
        return post.body[:80]

    @admin.display(description="post")
    def shown_body(self, post: TalkPost) -> str:
        return "(hidden by a curator)" if post.hidden else post.body[:80]
