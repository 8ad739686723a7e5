"""The archive's endpoints: thin views that validate, call a service or selector, and serialize."""

from __future__ import annotations

import json

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import generics, permissions, status
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from decks import selectors, services
from decks.api import serializers
from decks.api.files import attachment
from decks.exporters import FORMATS as EXPORT_FORMATS
from decks.exporters import export_deck, media_type
from dvorak_kit.api.idempotency import idempotent
from dvorak_kit.api.pagination import Keyset, PageNumbers
from dvorak_kit.api.params import (
    IF_MATCH,
    if_match_version,
    number_parameter,
    read_query,
    takes_no_body,
    whole_number,
)
from dvorak_kit.api.responses import NOT_MODIFIED, conditional, conditional_parameters, created
from dvorak_kit.api.schema import refusals

TAGS = ["archive"]
READ_OR_SIGNED_IN = [permissions.IsAuthenticatedOrReadOnly]
LOCKED = {423: "The deck is locked (`deck_locked`): a curator must unlock it first."}
CURATORS_ONLY = {403: "Curators only (`forbidden`)."}


def deck_response(request, slug: str, *, made: bool = False, revision_made: bool = False) -> Response:
    """The deck, with an `ETag` naming its revision: the `If-Match` a PATCH may send back; a GET that names it in
    `If-None-Match` answers 304. ``made``: a new deck, 201 with its address; ``revision_made``: a new revision
    (a restore), 201 with the revision's address."""
    body = serializers.DeckSerializer(selectors.deck_get(slug=slug)).data
    etag = f'"{body["revision"]}"'
    if made or revision_made:
        where = (reverse("deck-revision", args=[body["slug"], body["revision"]]) if revision_made
                 else reverse("deck-detail", args=[body["slug"]]))
        return created(request, body, where, headers={"ETag": etag})
    return conditional(request, Response(body), etag)


ETAG_TEXT = 'The deck, with an `ETag` naming its latest revision (`"12"`): the `If-Match` a PATCH may send back.'
DECK_TAG = 'the deck\'s latest revision, `"12"`'


class DeckListView(generics.ListAPIView):
    permission_classes = READ_OR_SIGNED_IN
    serializer_class = serializers.DeckSummarySerializer
    pagination_class = PageNumbers

    def get_queryset(self):
        query = read_query(serializers.DeckListQuerySerializer, self.request)
        return selectors.with_card_count(selectors.deck_list(
            search=query.get("search", ""),
            status=query.get("status"),
            players=query.get("players"),
            locked=query.get("locked"),
            kind=query.get("kind"),
            ruleset=query.get("ruleset"),
        ))  # by title; with `search`, best first

    @extend_schema(tags=TAGS, parameters=[serializers.DeckListQuerySerializer])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(tags=TAGS, request=serializers.DeckInputSerializer, responses={
        201: serializers.DeckSerializer, **refusals({409: "A deck has that slug (`deck_exists`)."})})
    @idempotent
    def post(self, request):
        form = serializers.DeckInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        deck = services.deck_create(author=request.user, data=form.to_deck(), summary=form.validated_data["summary"])
        return deck_response(request, deck.slug, made=True)


class CardSearchView(generics.ListAPIView):
    permission_classes = READ_OR_SIGNED_IN
    serializer_class = serializers.CardFoundSerializer
    pagination_class = PageNumbers

    def get_queryset(self):
        query = read_query(serializers.CardSearchQuerySerializer, self.request)
        return selectors.card_search(search=query.get("q", ""), type=query.get("type"), deck=query.get("deck"))

    @extend_schema(
        tags=TAGS, parameters=[serializers.CardSearchQuerySerializer],
        description="The cards of every deck, each with its deck, a page at a time. With `q`, those it finds, best "
        "first: a card whose title matches before one whose text does; without it, by deck title, then by place in "
        "the deck. `type` and `deck` narrow the search (a `deck` no deck has finds nothing).",
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class DeckDetailView(APIView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(tags=TAGS, parameters=conditional_parameters(DECK_TAG),
                   responses={200: OpenApiResponse(serializers.DeckSerializer, description=ETAG_TEXT), **NOT_MODIFIED})
    def get(self, request, slug: str):
        return deck_response(request, slug)

    @extend_schema(
        tags=TAGS, request=serializers.DeckPatchSerializer,
        parameters=[OpenApiParameter(
            "If-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, pattern=IF_MATCH,
            description='The revision the change was made from, as an entity tag: `"12"` (the ETag of the deck\'s '
                        "GET). If the deck has a newer revision, nothing is saved: 412 `version_conflict`. Without "
                        "it, the change is saved over whatever the deck holds now.")],
        responses={200: OpenApiResponse(serializers.DeckSerializer, description=ETAG_TEXT), **refusals({
            **LOCKED, 412: "`If-Match` names another revision than the deck's latest (`version_conflict`)."})},
    )
    def patch(self, request, slug: str):
        base_revision = if_match_version(request.headers.get("If-Match"))
        form = serializers.DeckPatchSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        services.deck_update(
            slug=slug, author=request.user, changes=form.changes(), summary=form.validated_data["summary"],
            base_revision=base_revision,
        )
        return deck_response(request, slug)

    @extend_schema(tags=TAGS, request=None, responses={204: None, **refusals(CURATORS_ONLY)}, description="Curators only.")
    @takes_no_body
    def delete(self, request, slug: str):
        services.deck_delete(slug=slug, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeckLockView(APIView):
    locked = True

    @extend_schema(tags=TAGS, request=None, responses={200: serializers.DeckSerializer, **refusals(CURATORS_ONLY)},
                   description="Curators only.")
    @takes_no_body
    def post(self, request, slug: str):
        change = services.deck_lock if self.locked else services.deck_unlock
        change(slug=slug, actor=request.user)
        return deck_response(request, slug)


class DeckUnlockView(DeckLockView):
    locked = False


class CardListView(APIView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(tags=TAGS, request=serializers.CardInputSerializer,
                   responses={201: serializers.CardSerializer, **refusals(LOCKED)})
    @idempotent
    def post(self, request, slug: str):
        form = serializers.CardInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        card = services.card_add(
            slug=slug, author=request.user, card=form.to_card(), summary=form.validated_data["summary"]
        )
        return created(request, serializers.CardSerializer(card).data, reverse("deck-card", args=[slug, card.pk]))


class CardDetailView(APIView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(tags=TAGS, responses=serializers.CardSerializer)
    def get(self, request, slug: str, card_id: int):
        card = selectors.card_get(deck=selectors.deck_get(slug=slug), card_id=card_id)
        return Response(serializers.CardSerializer(card).data)

    @extend_schema(tags=TAGS, request=serializers.CardPatchSerializer,
                   responses={200: serializers.CardSerializer, **refusals(LOCKED)})
    def patch(self, request, slug: str, card_id: int):
        form = serializers.CardPatchSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        changes = dict(form.validated_data)
        card = services.card_update(
            slug=slug, card_id=card_id, author=request.user, changes=changes, summary=changes.pop("summary", "")
        )
        return Response(serializers.CardSerializer(card).data)

    @extend_schema(tags=TAGS, request=None, responses={204: None, **refusals(LOCKED)})
    @takes_no_body
    def delete(self, request, slug: str, card_id: int):
        services.card_delete(slug=slug, card_id=card_id, author=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EffectsConfirmView(APIView):
    @extend_schema(
        tags=TAGS, request=serializers.EffectsConfirmSerializer,
        parameters=[OpenApiParameter(
            "If-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, pattern=IF_MATCH,
            description='The revision the curator looked at, as an entity tag: `"12"`. If the deck has a newer '
                        "revision, nothing is confirmed: 412 `version_conflict`.")],
        responses={200: OpenApiResponse(serializers.EffectsConfirmedSerializer,
                                        description="What was confirmed, with an `ETag` naming the deck's latest "
                                                    "revision."),
                   **refusals({**LOCKED, 404: "No such deck, or no card or Special Rule of that id (`not_found`).",
                               412: "`If-Match` names another revision than the deck's latest "
                                    "(`version_conflict`)."})},
        description="The reader's suggested effect of each card and Special Rule named (`cards`, `special_rules`: "
        "ids) becomes its confirmed `effect`; with neither, every card and rule whose suggestion is understood in "
        "full and that has no confirmed effect. One revision for all of them (none when nothing is confirmed).",
    )
    def post(self, request, slug: str):
        base_revision = if_match_version(request.headers.get("If-Match"))
        form = serializers.EffectsConfirmSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        confirmed = services.deck_effects_confirm(
            slug=slug, author=request.user, cards=form.validated_data.get("cards"),
            special_rules=form.validated_data.get("special_rules"), base_revision=base_revision,
        )
        body = serializers.EffectsConfirmedSerializer({
            "cards": confirmed.cards, "special_rules": confirmed.special_rules, "revision": confirmed.deck.revision,
        }).data
        return Response(body, headers={"ETag": f'"{confirmed.deck.revision}"'})


class DeckImportView(APIView):
    @extend_schema(
        tags=TAGS,
        request=serializers.ImportSerializer,
        responses={
            201: OpenApiResponse(PolymorphicProxySerializer(
                component_name="DeckOrDecks",
                serializers=[serializers.DeckSerializer, serializers.ImportedSerializer],
                resource_type_field_name=None,
            ), description="The deck; or, for a listing of several, `{\"decks\": [...]}`."),
            **refusals({400: "Not valid (`invalid`): the text does not parse (`details` name the line), or a "
                             "field is wrong.",
                        409: "A deck has that slug (`deck_exists`)."}),
        },
        description="Imports every deck in the text, or none. One deck answers as the deck itself; a listing "
        "with several games answers `{\"decks\": [...]}`, its `Location` the first deck's.",
    )
    @idempotent
    def post(self, request):
        form = serializers.ImportSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        decks = services.deck_import(
            author=request.user,
            text=form.validated_data["text"],
            format=form.validated_data["format"],
            slug=form.validated_data.get("slug") or None,
        )
        if len(decks) == 1:
            return deck_response(request, decks[0].slug, made=True)
        bodies = [serializers.DeckSerializer(selectors.deck_get(slug=deck.slug)).data for deck in decks]
        return created(request, {"decks": bodies}, reverse("deck-detail", args=[decks[0].slug]))


def export_media_types() -> dict[str, list[str]]:
    """Each media type the exports answer with (without its charset), and the formats that use it."""
    found: dict[str, list[str]] = {}
    for export_format in EXPORT_FORMATS:
        found.setdefault(media_type(export_format).split(";")[0], []).append(export_format)
    return found


class AnyMediaRenderer(BaseRenderer):
    """Lets a client ask for the export's own type (Accept: application/pdf) without a 406; the file itself is the
    view's own answer (``attachment``), so what this renderer is handed is a refusal: ``FileExportView`` sends
    that as JSON, under the JSON type, whatever was asked for."""

    media_type = "*/*"
    format = "export"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, bytes | str):
            return data
        return json.dumps(data).encode()


class FileExportView(APIView):
    """An export's view: any ``Accept`` (or ``?format=``) is taken, and a refusal goes out as every API error
    does, JSON with its own Content-Type (not the type asked for, nor ``*/*``)."""

    renderer_classes = [JSONRenderer, AnyMediaRenderer]

    def finalize_response(self, request, response, *args, **kwargs):
        if isinstance(response, Response) and isinstance(getattr(request, "accepted_renderer", None), AnyMediaRenderer):
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)


class DeckExportView(FileExportView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(
        tags=TAGS,
        parameters=[OpenApiParameter("export_format", str, OpenApiParameter.PATH, enum=list(EXPORT_FORMATS)),
                    serializers.ExportQuerySerializer],
        responses={
            **{(200, media_type): OpenApiResponse(
                OpenApiTypes.OBJECT if media_type == "application/json" else OpenApiTypes.BINARY,
                description="The file: " + "; ".join(f"{t} for {', '.join(f)}" for t, f in export_media_types().items()),
            ) for media_type in export_media_types()},
            **refusals({400: "A `layout` or `paper` that is not one of those listed (`invalid`).",
                        404: "No such deck, or no such format (`not_found`).",
                        409: "A format that writes every copy (mushcode, lackey, print, pdf) of a deck of more "
                        "than 2000 cards, copies counted (`export_too_large`)."}),
        },
        description="The deck as a file (`Content-Disposition: attachment`): json, mushcode (text), lackey "
        "(tab-separated), apprentice (CSV), print (an HTML page laid out to print on cards), pdf (cards to cut "
        "out, with crop marks: `layout` and `paper` choose their size and the paper's) or cod (a Cockatrice deck).",
    )
    # Not `format`: DRF reads a `format` URL argument as a renderer suffix.
    def get(self, request, slug: str, export_format: str):
        options = read_query(serializers.ExportQuerySerializer, request)
        deck = selectors.deck_data(selectors.deck_get(slug=slug))
        return attachment(lambda: export_deck(deck, export_format, **options))


class RevisionListView(APIView):
    permission_classes = READ_OR_SIGNED_IN
    pagination_class = Keyset.by("number", key="revision number")

    @extend_schema(tags=TAGS, responses=serializers.RevisionSerializer(many=True),
                   description="The deck's revisions, oldest first.")
    def get(self, request, slug: str):
        paginator = self.pagination_class()
        revisions = paginator.paginate_queryset(selectors.revision_list(deck=selectors.deck_get(slug=slug, contents=False)), request)
        return paginator.get_paginated_response(serializers.RevisionSerializer(revisions, many=True).data)


class RevisionDetailView(APIView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(tags=TAGS, responses=serializers.DeckContentSerializer)
    def get(self, request, slug: str, number: int):
        revision = selectors.revision_get(deck=selectors.deck_get(slug=slug, contents=False), number=number)
        facts = serializers.RevisionSerializer(revision).data
        return Response({**revision.content, "revision": facts.pop("number"), **facts})


class RevisionDiffView(APIView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(
        tags=TAGS,
        parameters=[number_parameter("against", "The older revision (from 1); the one before by default.", minimum=1)],
        responses={200: serializers.RevisionDiffSerializer, **refusals({
            404: "No such deck or revision, or no revision before the first (`not_found`)."})},
    )
    def get(self, request, slug: str, number: int):
        against = whole_number(request.query_params.get("against"), "against", minimum=1)
        older, newer, diff = selectors.revision_diff(deck=selectors.deck_get(slug=slug, contents=False), number=number, against=against)
        return Response({"slug": slug, "against": older.number, "number": newer.number, "diff": diff})


class RevisionRestoreView(APIView):
    @extend_schema(tags=TAGS, request=None, responses={201: serializers.DeckSerializer, **refusals(LOCKED)},
                   description="Saves the deck as that revision had it, as a new revision (`Location`: the new "
                               "revision's address).")
    @idempotent
    @takes_no_body
    def post(self, request, slug: str, number: int):
        services.revision_restore(slug=slug, number=number, author=request.user)
        return deck_response(request, slug, revision_made=True)


class TalkView(APIView):
    permission_classes = READ_OR_SIGNED_IN
    pagination_class = Keyset.by("id", key="post id")

    @extend_schema(tags=TAGS, responses=serializers.TalkPostSerializer(many=True),
                   description="The talk page's posts, oldest first. A post a curator hid keeps its place "
                               "(`hidden`, `hidden_at`) with an empty `body`, except for curators.")
    def get(self, request, slug: str):
        paginator = self.pagination_class()
        posts = paginator.paginate_queryset(selectors.talk_list(deck=selectors.deck_get(slug=slug, contents=False)), request)
        body = serializers.TalkPostSerializer(posts, many=True, context=talk_context(request)).data
        return paginator.get_paginated_response(body)

    @extend_schema(tags=TAGS, request=serializers.TalkPostInputSerializer, responses={
        201: serializers.TalkPostSerializer,
        **refusals({404: "No such deck, or no such post to reply to (`not_found`)."})})
    @idempotent
    def post(self, request, slug: str):
        form = serializers.TalkPostInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        post = services.talk_post(slug=slug, author=request.user, **form.validated_data)
        body = serializers.TalkPostSerializer(post, context=talk_context(request)).data
        return created(request, body, reverse("deck-talk-post", args=[slug, post.pk]))


class TalkPostView(APIView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(tags=TAGS, responses=serializers.TalkPostSerializer,
                   description="One post of the talk page, as the list shows it.")
    def get(self, request, slug: str, post_id: int):
        post = selectors.talk_post_get(deck=selectors.deck_get(slug=slug, contents=False), post_id=post_id)
        return Response(serializers.TalkPostSerializer(post, context=talk_context(request)).data)


def talk_context(request) -> dict[str, bool]:
    # Curators read what they hid; everyone else reads only that a post was hidden.
    return {"curator": services.is_curator(request.user)}
