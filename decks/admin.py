"""The Django admin as the online deck archive: decks with their cards and Special Rules, the wiki history
with diffs and restore, lock and unlock for curators, the talk page, and import and export.

The admin follows the API's rules: any staff member reads and edits unlocked decks, curators lock, unlock
and delete, and a locked deck's change view, inlines, delete and actions refuse to change it. Every save
goes through `decks.services`, which checks the lock again under the deck's row lock and records a revision.
"""

from __future__ import annotations

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
from dvorak_core.errors import DeckLocked, DomainError
from dvorak_core.storable import unstorable


def is_staff(request: HttpRequest) -> bool:
    return bool(request.user.is_active and request.user.is_staff)


def deck_is_locked(obj: Any) -> bool:
    deck = obj if isinstance(obj, Deck) else getattr(obj, "deck", None)
    # Read the lock from the database: the object in hand may be older than a curator's lock.
    return bool(deck and deck.pk and Deck.objects.filter(pk=deck.pk, locked=True).exists())


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


class SpecialRuleInline(LockAwareInline):
    model = SpecialRule
    fields = ["position", "title", "text"]


class CardInline(LockAwareInline):
    model = Card
    formfield_overrides = STORABLE_JSON
    fields = ["position", "title", "type", "text", "flavor", "copies", "corner_value", "creator", "stats",
              "out_of_turn"]


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
    formfield_overrides = STORABLE_JSON
    actions = ["lock_decks", "unlock_decks"]

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

    def save_model(self, request: HttpRequest, obj: Deck, form: forms.ModelForm, change: bool) -> None:
        # A changed deck is written in save_related, under the service's row lock and lock check.
        if not change:
            obj.save()

    def save_related(self, request: HttpRequest, form: forms.ModelForm, formsets: list, change: bool) -> None:
        deck = form.instance
        editable = [name for name in form.fields if name not in self.get_readonly_fields(request, deck)]

        def apply() -> None:
            if change:
                deck.save(update_fields=[*editable, "updated_at"])
            super(DeckAdmin, self).save_related(request, form, formsets, change)

        try:
            services.deck_admin_edit(
                slug=deck.slug, author=request.user, summary=self.edit_summary(form, formsets, change), apply=apply
            )
        except DeckLocked as error:
            raise PermissionDenied(error.message) from error

    @staticmethod
    def edit_summary(form: forms.ModelForm, formsets: list, change: bool) -> str:
        if not change:
            return "Created in the admin"
        changed = list(form.changed_data)
        changed += [str(formset.model._meta.verbose_name_plural) for formset in formsets if formset.has_changed()]
        return f"Edited in the admin: {', '.join(changed) or 'no changes'}"

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
        return self._page(request, "talk.html", deck, f"Talk: {deck.title}", posts=posts, form=form)

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
    list_display = ["deck", "author", "created_at", "short_body"]
    search_fields = ["deck__title", "body"]

    @admin.display(description="post")
    def short_body(self, post: TalkPost) -> str:
        # A plain string: the changelist escapes it like any other value.
        return post.body[:80]
import decks.ccg.admin  # noqa: E402,F401  (the CCG pages: versions, player decks, notices)
