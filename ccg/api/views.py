"""The CCG endpoints: thin views that validate, call a service or selector, and serialize."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from ccg import changes, selectors, services
from ccg.api import serializers
from decks.api.files import attachment
from decks.api.views import FileExportView
from decks.exporters.deck_files import MAX_DECK_FILE_CHARS
from dvorak_core.errors import DomainError, NotFound
from dvorak_kit.api.idempotency import idempotent
from dvorak_kit.api.pagination import Keyset
from dvorak_kit.api.params import read_query, takes_no_body
from dvorak_kit.api.parsers import JSONParser  # deep nesting is a 400, not a server error
from dvorak_kit.api.responses import NOT_MODIFIED, conditional, conditional_parameters, content_tag, created
from dvorak_kit.api.schema import refusals
from proposals.models import CardSetChange

TAGS = ["ccg"]
READ_OR_SIGNED_IN = [permissions.IsAuthenticatedOrReadOnly]
NOT_A_CARD_SET = {409: "The deck is not a CCG card set (`not_a_card_set`)."}
NOT_YOURS = {404: "No player deck of yours has that id: someone else's answers the same (`not_found`)."}
IN_GAME = {409: "A game is playing the deck (`deck_in_game`): change it after the game."}
VERSIONS_TAG = 'the number of the set\'s latest version, `"3"`'
PLAYER_DECK_TAG = "made of the deck as shown, which any change to it or to its set's latest version changes"


class VersionListView(APIView):
    permission_classes = READ_OR_SIGNED_IN
    pagination_class = Keyset.by("number", key="version number")

    @extend_schema(tags=TAGS, parameters=conditional_parameters(VERSIONS_TAG),
                   responses={200: serializers.VersionSerializer(many=True), **NOT_MODIFIED,
                              **refusals(NOT_A_CARD_SET)},
                   description="The card set's versions, oldest first; version 1 is the set as first registered. "
                   "`problems` lists what a version lacks by the CCG rules (`too_few_cards`: fewer than fifty "
                   "cards); a set with problems is played all the same.")
    def get(self, request, slug: str):
        version = services.card_set_version_ensure(slug=slug)
        paginator = self.pagination_class()
        versions = paginator.paginate_queryset(selectors.version_list(card_set=version.card_set), request)
        answer = paginator.get_paginated_response(serializers.VersionSerializer(versions, many=True).data)
        return conditional(request, answer, f'"{version.number}"')


class VersionDetailView(APIView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(tags=TAGS, parameters=conditional_parameters('the version\'s number, `"3"`: a version never '
                                                                'changes'),
                   responses={200: serializers.VersionContentSerializer, **NOT_MODIFIED, **refusals(NOT_A_CARD_SET)},
                   description="The set as it was at that version, with the card ids player decks use, and "
                   "`problems`: what it lacks by the CCG rules (never a refusal).")
    def get(self, request, slug: str, number: int):
        card_set = services.card_set_version_ensure(slug=slug).card_set
        version = selectors.version_get(card_set=card_set, number=number)
        facts = serializers.VersionSerializer(version).data
        body = {**version.content, "kind": card_set.kind, "version": facts.pop("number"), **facts}
        return conditional(request, Response(body), f'"{version.number}"')


class RegisterView(APIView):
    location_header = False  # a registration has no address of its own

    @extend_schema(tags=TAGS, request=None, responses={201: serializers.RegistrationSerializer,
                                                       **refusals(NOT_A_CARD_SET)},
                   description="Register as a player of the set: you may then propose changes, and any change "
                   "passes only if no registered player objects.")
    @takes_no_body
    def post(self, request, slug: str):
        player = services.card_set_register(slug=slug, user=request.user)
        body = {"card_set": slug, "username": request.user.username, "registered_at": player.registered_at,
                "players": len(selectors.registered_player_ids(card_set=player.card_set))}
        return Response(serializers.RegistrationSerializer(body).data, status=status.HTTP_201_CREATED)


def change_response(request, change_id: int, *, made: bool = False) -> Response:
    change = CardSetChange.objects.select_related("author", "version", "card_set").prefetch_related(
        "votes__user").get(pk=change_id)
    body = serializers.ChangeSerializer(change).data
    if made:
        return created(request, body, reverse("card-set-change", args=[change.card_set.slug, change.pk]))
    return Response(body)


class ChangeListView(APIView):
    permission_classes = READ_OR_SIGNED_IN
    pagination_class = Keyset.by("id", key="change id")

    @extend_schema(tags=TAGS, responses={200: serializers.ChangeSerializer(many=True), **refusals(NOT_A_CARD_SET)},
                   parameters=[serializers.ChangeListQuerySerializer],
                   description="The set's proposed changes, oldest first.")
    def get(self, request, slug: str):
        query = read_query(serializers.ChangeListQuerySerializer, request)
        card_set = selectors.card_set_get(slug=slug)
        changes = card_set.proposed_changes.select_related("author", "version").prefetch_related("votes__user")
        if query.get("status"):
            changes = changes.filter(status=query["status"])
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(changes, request)
        return paginator.get_paginated_response(serializers.ChangeSerializer(page, many=True).data)

    @extend_schema(tags=TAGS, request=serializers.ChangeInputSerializer,
                   responses={201: serializers.ChangeSerializer, **refusals({
                       403: "Registered players only (`forbidden`).",
                       404: "No such card set, or no such card in its latest version (`not_found`).",
                       **NOT_A_CARD_SET})},
                   description="Registered players only. The proposer accepts their own change.")
    @idempotent
    def post(self, request, slug: str):
        form = serializers.ChangeInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        change = changes.card_set_change_propose(
            slug=slug, author=request.user, kind=data["kind"], card_id=data.get("card"), content=data.get("content"),
        )
        return change_response(request, change.pk, made=True)


class ChangeDetailView(APIView):
    permission_classes = READ_OR_SIGNED_IN

    @extend_schema(tags=TAGS, responses={200: serializers.ChangeSerializer, **refusals(NOT_A_CARD_SET)},
                   description="One proposed change of the set, as the list shows it.")
    def get(self, request, slug: str, change_id: int):
        if not selectors.card_set_get(slug=slug).proposed_changes.filter(pk=change_id).exists():
            raise NotFound(f"The card set {slug!r} has no change {change_id}.")
        return change_response(request, change_id)


class ChangeAnswerView(APIView):
    approve = True

    @extend_schema(tags=TAGS, request=None, responses={200: serializers.ChangeSerializer, **refusals({
                       403: "Registered players only (`forbidden`).",
                       409: "The change is decided already (`change_decided`), or the deck is not a card set "
                            "(`not_a_card_set`)."})},
                   description="Registered players only; one objection rejects the change.")
    @takes_no_body
    def post(self, request, slug: str, change_id: int):
        changes.card_set_change_answer(slug=slug, change_id=change_id, user=request.user, approve=self.approve)
        return change_response(request, change_id)


class ChangeObjectView(ChangeAnswerView):
    approve = False


def player_deck_response(request, player_deck, *, made: bool = False) -> Response:
    """The player deck, with an `ETag` made of what it shows (a GET naming it in `If-None-Match` answers 304);
    ``made``: 201 with its address."""
    body = serializers.PlayerDeckSerializer(selectors.player_deck_view(player_deck)).data
    if made:
        return created(request, body, reverse("player-deck-detail", args=[player_deck.pk]),
                       headers={"ETag": content_tag(body)})
    return conditional(request, Response(body), content_tag(body))


class PlayerDeckListView(APIView):
    pagination_class = Keyset.by("id", key="player deck id")

    @extend_schema(tags=TAGS, responses=serializers.PlayerDeckSerializer(many=True),
                   description="Your decks, oldest first.")
    def get(self, request):
        paginator = self.pagination_class()
        decks = paginator.paginate_queryset(selectors.player_deck_list(user=request.user), request)
        return paginator.get_paginated_response(
            serializers.PlayerDeckSerializer([selectors.player_deck_view(d) for d in decks], many=True).data)

    @extend_schema(tags=TAGS, request=serializers.PlayerDeckInputSerializer,
                   responses={201: serializers.PlayerDeckSerializer, **refusals({
                       400: "Not valid (`invalid`): a bad field, or a card that is not in the set's latest version.",
                       404: "No such card set (`not_found`).", **NOT_A_CARD_SET})},
                   description="A deck built on the set's latest version; `valid` and `problems` say whether it "
                   "may be played yet.")
    @idempotent
    def post(self, request):
        form = serializers.PlayerDeckInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        player_deck = services.player_deck_create(
            owner=request.user, card_set_slug=data["card_set"], name=data["name"], entries=data["entries"]
        )
        return player_deck_response(request, player_deck, made=True)


class PlayerDeckCheckView(APIView):
    @extend_schema(tags=TAGS, request=serializers.PlayerDeckCheckInputSerializer,
                   responses={200: serializers.PlayerDeckCheckSerializer, **refusals({
                       400: "Not valid (`invalid`): a bad field.",
                       404: "No such card set, or no such version of it (`not_found`).", **NOT_A_CARD_SET})},
                   description="Whether a deck of these entries would be valid on the set's version, and each "
                   "problem as a stored deck states it; nothing is stored. A card the version lacks is a problem "
                   "here (building or tuning a deck with it is refused).")
    def post(self, request):
        form = serializers.PlayerDeckCheckInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        latest = services.card_set_version_ensure(slug=data["card_set"])
        body = selectors.entries_check(card_set=latest.card_set, number=data.get("version", latest.number),
                                       entries=data["entries"])
        return Response(serializers.PlayerDeckCheckSerializer(body).data)


class PlayerDeckDetailView(APIView):
    @extend_schema(tags=TAGS, parameters=conditional_parameters(PLAYER_DECK_TAG),
                   responses={200: serializers.PlayerDeckSerializer, **NOT_MODIFIED, **refusals(NOT_YOURS)})
    def get(self, request, player_deck_id: int):
        return player_deck_response(request, selectors.player_deck_get(user=request.user,
                                                                       player_deck_id=player_deck_id))

    @extend_schema(tags=TAGS, request=serializers.PlayerDeckPatchSerializer,
                   responses={200: serializers.PlayerDeckSerializer, **refusals({**NOT_YOURS, **IN_GAME})},
                   description="Tuning between games; 409 `deck_in_game` while a game is playing it.")
    def patch(self, request, player_deck_id: int):
        form = serializers.PlayerDeckPatchSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        player_deck = services.player_deck_tune(user=request.user, player_deck_id=player_deck_id,
                                                **form.validated_data)
        return player_deck_response(request, player_deck)

    @extend_schema(tags=TAGS, request=None, responses={204: None, **refusals({**NOT_YOURS, **IN_GAME})})
    @takes_no_body
    def delete(self, request, player_deck_id: int):
        services.player_deck_delete(user=request.user, player_deck_id=player_deck_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerDeckUpdateView(APIView):
    @extend_schema(tags=TAGS, request=None,
                   responses={200: serializers.PlayerDeckUpdateSerializer, **refusals(NOT_YOURS)},
                   description="Brings the deck to its set's latest version: changed cards follow, removed ones "
                   "are taken out (listed in `removed`). Every deck follows each version as it is built, so this "
                   "changes only a deck left behind; also while a game plays it (following the set is not "
                   "tuning).")
    @takes_no_body
    def post(self, request, player_deck_id: int):
        player_deck, update = services.player_deck_update(user=request.user, player_deck_id=player_deck_id)
        body = {**selectors.player_deck_view(player_deck), "removed": list(update.removed),
                "changed": list(update.changed)}
        return Response(serializers.PlayerDeckUpdateSerializer(body).data)


class PlayerDeckExportView(FileExportView):

    @extend_schema(
        tags=TAGS,
        parameters=[OpenApiParameter("export_format", str, OpenApiParameter.PATH,
                                     enum=list(selectors.DECK_FILE_FORMATS))],
        responses={(200, "application/xml"): OpenApiResponse(
                       OpenApiTypes.BINARY, description="The deck file: Cockatrice (`cod`) or OCTGN (`o8d`) XML."),
                   **refusals({404: "No player deck of yours has that id, or no such format (`not_found`)."})},
        description="Your deck as a file for Cockatrice (`cod`) or OCTGN (`o8d`), `Content-Disposition: "
        "attachment`. OCTGN card ids are UUIDs derived from the set and the card, the same in every export.",
    )
    def get(self, request, player_deck_id: int, export_format: str):
        return attachment(lambda: selectors.player_deck_file(
            user=request.user, player_deck_id=player_deck_id, format=export_format))


class PlayerDeckImportView(APIView):
    parser_classes = [JSONParser, MultiPartParser, FormParser]

    @extend_schema(tags=TAGS, request={"application/json": serializers.PlayerDeckImportSerializer,
                                       "multipart/form-data": serializers.PlayerDeckImportSerializer},
                   responses={201: serializers.PlayerDeckSerializer, **refusals({
                       400: "Not valid (`invalid`): the file is not well-formed Cockatrice XML, declares entities, "
                            "is too long, or names cards the set lacks (`details.unknown_cards` lists them).",
                       404: "No such card set (`not_found`).", **NOT_A_CARD_SET})},
                   description="A player deck from a Cockatrice `.cod` file's text, its card names matched to the "
                   "titles of the set's latest version. Every zone counts.")
    @idempotent
    def post(self, request):
        data = request.data
        upload = request.FILES.get("text")
        if upload is not None:  # multipart: the file itself as the `text` part
            data = {key: data.get(key) for key in data if key != "text"} | {"text": _upload_text(upload)}
        form = serializers.PlayerDeckImportSerializer(data=data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        player_deck = services.player_deck_import(owner=request.user, card_set_slug=data["card_set"],
                                                  text=data["text"], name=data["name"])
        return player_deck_response(request, player_deck, made=True)


def _upload_text(upload) -> str:
    if upload.size > MAX_DECK_FILE_CHARS:
        raise DomainError(f"A deck file has at most {MAX_DECK_FILE_CHARS} characters.", details={"text": ["too long"]})
    try:
        return upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DomainError("The deck file is not UTF-8 text.", details={"text": ["not UTF-8"]}) from None


class NotificationListView(APIView):
    pagination_class = Keyset.by("-id", key="notice id; newest first, so the next ones are older")

    @extend_schema(tags=TAGS, responses=serializers.NotificationSerializer(many=True),
                   parameters=[serializers.NotificationQuerySerializer],
                   description="Your notices, newest first.")
    def get(self, request):
        query = read_query(serializers.NotificationQuerySerializer, request)
        paginator = self.pagination_class()
        notices = paginator.paginate_queryset(
            selectors.notification_list(user=request.user, unread=bool(query.get("unread"))), request)
        return paginator.get_paginated_response(serializers.NotificationSerializer(notices, many=True).data)


class NotificationReadView(APIView):
    @extend_schema(tags=TAGS, request=serializers.MarkReadSerializer, responses=serializers.MarkedSerializer)
    def post(self, request):
        form = serializers.MarkReadSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        marked = services.notification_mark_read(user=request.user, ids=form.validated_data.get("ids"))
        return Response({"marked": marked})
