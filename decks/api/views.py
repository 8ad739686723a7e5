"""The archive's endpoints: thin views that validate, call a service or selector, and serialize."""

from __future__ import annotations

import json

from django.db.models import Sum, Value
from django.db.models.functions import Coalesce
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, permissions, status
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from decks import selectors, services
from decks.api import serializers
from decks.exporters import FORMATS as EXPORT_FORMATS
from decks.exporters import UnknownFormatError, export_deck
from dvorak_core.deckdata import STATUSES
from dvorak_core.errors import DomainError, NotFound

TAGS = ["archive"]
READ_OR_SIGNED_IN = [permissions.IsAuthenticatedOrReadOnly]


def deck_response(slug: str, *, created: bool = False) -> Response:
    body = serializers.DeckSerializer(selectors.deck_get(slug=slug)).data
    return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


def parse_bool(value: str | None, name: str) -> bool | None:
    if value in (None, ""):
        return None
    lowered = value.lower()
    if lowered in {"true", "1", "yes"}:
        return True
    if lowered in {"false", "0", "no"}:
        return False
    raise DomainError(f"{name} is true or false, not {value!r}.", details={name: ["Must be true or false."]})


class DeckListView(generics.ListAPIView):
    permission_classes = READ_OR_SIGNED_IN
    serializer_class = serializers.DeckSummarySerializer

    def get_queryset(self):
        params = self.request.query_params
        return selectors.deck_list(
            search=params.get("search", ""),
            status=params.get("status"),
            players=params.get("players"),
            locked=parse_bool(params.get("locked"), "locked"),
            kind=params.get("kind"),
        ).annotate(card_count=Coalesce(Sum("cards__copies"), Value(0))).order_by("title", "slug")

    @extend_schema(
        tags=TAGS,
        parameters=[
            OpenApiParameter("search", str, description="Words in the title, slug, designers or description."),
            OpenApiParameter("status", str, enum=[s for s in STATUSES if s]),
            OpenApiParameter("players", str, description="The player count as the deck gives it, e.g. 2-4."),
            OpenApiParameter("locked", bool),
            OpenApiParameter("kind", str, enum=serializers.KINDS),
        ],
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(tags=TAGS, request=serializers.DeckInputSerializer, responses={201: serializers.DeckSerializer})
    def post(self, request):
        form = serializers.DeckInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        deck = services.deck_create(author=request.user, data=form.to_deck(), summary=form.validated_data["summary"])
        return deck_response(deck.slug, created=True)


class DeckDetailView(APIView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(tags=TAGS, responses=serializers.DeckSerializer)
    def get(self, request, slug: str):
        return deck_response(slug)

    @extend_schema(tags=TAGS, request=serializers.DeckPatchSerializer, responses=serializers.DeckSerializer)
    def patch(self, request, slug: str):
        form = serializers.DeckPatchSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        services.deck_update(
            slug=slug, author=request.user, changes=form.changes(), summary=form.validated_data["summary"]
        )
        return deck_response(slug)

    @extend_schema(tags=TAGS, request=None, responses={204: None}, description="Curators only.")
    def delete(self, request, slug: str):
        services.deck_delete(slug=slug, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeckLockView(APIView):
    locked = True

    @extend_schema(tags=TAGS, request=None, responses=serializers.DeckSerializer, description="Curators only.")
    def post(self, request, slug: str):
        change = services.deck_lock if self.locked else services.deck_unlock
        change(slug=slug, actor=request.user)
        return deck_response(slug)


class DeckUnlockView(DeckLockView):
    locked = False


class CardListView(APIView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(tags=TAGS, request=serializers.CardInputSerializer, responses={201: serializers.CardSerializer})
    def post(self, request, slug: str):
        form = serializers.CardInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        card = services.card_add(
            slug=slug, author=request.user, card=form.to_card(), summary=form.validated_data["summary"]
        )
        return Response(serializers.CardSerializer(card).data, status=status.HTTP_201_CREATED)


class CardDetailView(APIView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(tags=TAGS, responses=serializers.CardSerializer)
    def get(self, request, slug: str, card_id: int):
        card = selectors.card_get(deck=selectors.deck_get(slug=slug), card_id=card_id)
        return Response(serializers.CardSerializer(card).data)

    @extend_schema(tags=TAGS, request=serializers.CardPatchSerializer, responses=serializers.CardSerializer)
    def patch(self, request, slug: str, card_id: int):
        form = serializers.CardPatchSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        changes = dict(form.validated_data)
        card = services.card_update(
            slug=slug, card_id=card_id, author=request.user, changes=changes, summary=changes.pop("summary", "")
        )
        return Response(serializers.CardSerializer(card).data)

    @extend_schema(tags=TAGS, request=None, responses={204: None})
    def delete(self, request, slug: str, card_id: int):
        services.card_delete(slug=slug, card_id=card_id, author=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeckImportView(APIView):
    @extend_schema(
        tags=TAGS,
        request=serializers.ImportSerializer,
        responses={201: serializers.DeckSerializer, 400: OpenApiResponse(description="`invalid`; details name the line")},
        description="Imports every deck in the text, or none. One deck answers as the deck itself; a listing "
        "with several games answers `{\"decks\": [...]}`.",
    )
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
            return deck_response(decks[0].slug, created=True)
        bodies = [serializers.DeckSerializer(selectors.deck_get(slug=deck.slug)).data for deck in decks]
        return Response({"decks": bodies}, status=status.HTTP_201_CREATED)


class AnyMediaRenderer(BaseRenderer):
    """Lets a client ask for the export's own type (Accept: application/pdf); errors still go out as JSON."""

    media_type = "*/*"
    format = "export"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, bytes | str):
            return data
        return json.dumps(data).encode()


class DeckExportView(APIView):
    permission_classes = READ_OR_SIGNED_IN
    renderer_classes = [JSONRenderer, AnyMediaRenderer]

    @extend_schema(
        tags=TAGS,
        parameters=[OpenApiParameter("export_format", str, OpenApiParameter.PATH, enum=list(EXPORT_FORMATS))],
        responses={(200, "*/*"): OpenApiTypes.BINARY},
        description="The deck as a file: json, mushcode, lackey, apprentice (CSV), print (HTML) or pdf.",
    )
    # Not `format`: DRF reads a `format` URL argument as a renderer suffix.
    def get(self, request, slug: str, export_format: str):
        deck = selectors.deck_data(selectors.deck_get(slug=slug))
        try:
            content, content_type, filename = export_deck(deck, export_format)
        except UnknownFormatError as error:
            raise NotFound(str(error)) from error
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


class RevisionListView(APIView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(tags=TAGS, responses=serializers.RevisionSerializer(many=True))
    def get(self, request, slug: str):
        revisions = selectors.revision_list(deck=selectors.deck_get(slug=slug))
        return Response(serializers.RevisionSerializer(revisions, many=True).data)


class RevisionDetailView(APIView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(tags=TAGS, responses=serializers.DeckContentSerializer)
    def get(self, request, slug: str, number: int):
        revision = selectors.revision_get(deck=selectors.deck_get(slug=slug), number=number)
        facts = serializers.RevisionSerializer(revision).data
        return Response({**revision.content, "revision": facts.pop("number"), **facts})


class RevisionDiffView(APIView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(
        tags=TAGS,
        parameters=[OpenApiParameter("against", int, description="The older revision; the one before by default.")],
        responses=serializers.RevisionDiffSerializer,
    )
    def get(self, request, slug: str, number: int):
        against = request.query_params.get("against")
        if against is not None and not against.isdigit():
            raise DomainError("against is a revision number.", details={"against": ["Must be a whole number."]})
        older, newer, diff = selectors.revision_diff(
            deck=selectors.deck_get(slug=slug), number=number, against=int(against) if against else None
        )
        return Response({"slug": slug, "against": older.number, "number": newer.number, "diff": diff})


class RevisionRestoreView(APIView):
    @extend_schema(tags=TAGS, request=None, responses={201: serializers.DeckSerializer},
                   description="Saves the deck as that revision had it, as a new revision.")
    def post(self, request, slug: str, number: int):
        services.revision_restore(slug=slug, number=number, author=request.user)
        return deck_response(slug, created=True)


class TalkView(APIView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(tags=TAGS, responses=serializers.TalkPostSerializer(many=True))
    def get(self, request, slug: str):
        posts = selectors.talk_list(deck=selectors.deck_get(slug=slug))
        return Response(serializers.TalkPostSerializer(posts, many=True).data)

    @extend_schema(tags=TAGS, request=serializers.TalkPostInputSerializer, responses={201: serializers.TalkPostSerializer})
    def post(self, request, slug: str):
        form = serializers.TalkPostInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        post = services.talk_post(slug=slug, author=request.user, **form.validated_data)
        return Response(serializers.TalkPostSerializer(post).data, status=status.HTTP_201_CREATED)
