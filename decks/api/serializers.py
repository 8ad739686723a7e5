"""The archive's JSON shapes (API.md, "The archive"): responses from rows, requests validated into values."""

from __future__ import annotations

from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from decks import exporters, importers
from decks.models import Card, Deck, Revision, SpecialRule, TalkPost
from decks.services import MAX_COPIES_PER_CARD, MAX_RULE_TEXT, MAX_TEXT
from dvorak_core.deckdata import (
    CARD_SET,
    DECK,
    DEFAULT_RULESET,
    MAX_CARDS_PER_DECK,
    STATUSES,
    THING,
    CardData,
    DeckData,
    SpecialRuleData,
)
from dvorak_core.effects import read_card, read_special_rule, suggestion
from dvorak_kit.api.params import EffectField, QueryBooleanField, StrictTypes, new_deck_slug

KINDS = [DECK, CARD_SET]


RULE_PARAMS_HELP = ("The rule parameters the rule sets in a game, e.g. {\"hand_limit\": 7} or {\"vote_rule\": "
                    "\"majority\"}; a game from the deck checks them against its ruleset.")


class EffectReadingSerializer(serializers.Serializer):
    """The reader's reading of the current text: a suggestion for the confirmed effect."""

    effects = serializers.ListField(child=serializers.DictField(), help_text="What the reader read, as effects.")
    unread = serializers.ListField(child=serializers.CharField(), help_text="The sentences it could not read.")
    understood = serializers.BooleanField(help_text="Nothing of the text is left unread.")


SUGGESTED_HELP = ("Read only: the reader's reading of the current text (`effects`, `unread`, `understood`), a "
                  "suggestion for `effect` that `POST /decks/{slug}/effects/confirm/` confirms.")


class SpecialRuleSerializer(serializers.ModelSerializer):
    params = serializers.DictField(help_text=RULE_PARAMS_HELP)
    effect = EffectField(read_only=True)
    suggested_effect = serializers.SerializerMethodField(help_text=SUGGESTED_HELP)

    class Meta:
        model = SpecialRule
        fields = ["id", "title", "text", "params", "effect", "suggested_effect"]

    @extend_schema_field(EffectReadingSerializer)
    def get_suggested_effect(self, rule: SpecialRule) -> dict[str, Any]:
        return suggestion(read_special_rule(rule.title, rule.text))


# The games' API has a Card of its own (a card in play); this one is the archive's card.
@extend_schema_serializer(component_name="DeckCard")
class CardSerializer(serializers.ModelSerializer):
    stats = serializers.DictField(child=serializers.IntegerField())
    effect = EffectField(read_only=True)
    suggested_effect = serializers.SerializerMethodField(help_text=SUGGESTED_HELP)

    class Meta:
        model = Card
        fields = ["id", "title", "type", "text", "flavor", "copies", "corner_value", "creator", "stats", "out_of_turn",
                  "effect", "suggested_effect"]

    @extend_schema_field(EffectReadingSerializer)
    def get_suggested_effect(self, card: Card) -> dict[str, Any]:
        return suggestion(read_card(card.title, card.type, card.text))


SEARCH_HELP = ("Words to find, best match first: a title that matches comes before a match elsewhere. Each word "
               "is needed, matched by its stem and as the start of a word (`rock` finds \"Rocket\"); on PostgreSQL "
               "a title typed with a mistake is found too.")


class DeckListQuerySerializer(serializers.Serializer):
    """The deck list's filters; each left out (or empty) means any."""

    search = serializers.CharField(required=False, max_length=200, help_text=(
        "Words in the title, designers, description, Special Rules or cards. " + SEARCH_HELP))
    status = serializers.ChoiceField([s for s in STATUSES if s], required=False)
    players = serializers.CharField(required=False, help_text=(
        "A number of players, e.g. 3: every deck whose player count holds it (\"2-4\", \"2+\", \"3 or more\"). "
        "Any other text finds the decks whose `players` is exactly it."))
    locked = QueryBooleanField()
    kind = serializers.ChoiceField(KINDS, required=False)
    ruleset = serializers.CharField(required=False, help_text="The ruleset that plays the deck, e.g. serm.")


PLAYERS_MIN_HELP = ("The fewest players, as read from `players` (\"2-4\" → 2, \"any\" → 1); null when it reads as "
                    "no range.")
PLAYERS_MAX_HELP = ("The most players, as read from `players` (\"2-4\" → 4); null when there is no upper bound "
                    "(\"2+\", \"any\") or the text reads as no range.")


class DeckSummarySerializer(serializers.ModelSerializer):
    designers = serializers.ListField(child=serializers.CharField())
    players_min = serializers.IntegerField(read_only=True, allow_null=True, help_text=PLAYERS_MIN_HELP)
    players_max = serializers.IntegerField(read_only=True, allow_null=True, help_text=PLAYERS_MAX_HELP)
    card_count = serializers.IntegerField(read_only=True, help_text="Cards in a printed deck: every copy counts.")

    class Meta:
        model = Deck
        fields = ["slug", "title", "kind", "designers", "date", "players", "players_min", "players_max", "status",
                  "locked", "ruleset", "revision", "card_count"]


class DeckSerializer(serializers.ModelSerializer):
    designers = serializers.ListField(child=serializers.CharField())
    players_min = serializers.IntegerField(read_only=True, allow_null=True, help_text=PLAYERS_MIN_HELP)
    players_max = serializers.IntegerField(read_only=True, allow_null=True, help_text=PLAYERS_MAX_HELP)
    special_rules = SpecialRuleSerializer(many=True)
    cards = CardSerializer(many=True)
    version = serializers.SerializerMethodField(help_text="The card set's version (card sets); null for decks.")

    class Meta:
        model = Deck
        fields = ["slug", "title", "kind", "designers", "date", "players", "players_min", "players_max", "status",
                  "locked", "ruleset", "description", "special_rules", "cards", "revision", "version"]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_version(self, deck: Deck) -> int | None:
        """A card set's latest version number (null for decks, and for a set no one has versioned yet)."""
        if deck.kind != CARD_SET:
            return None
        return deck.versions.order_by("-number").values_list("number", flat=True).first()


class CardDeckSerializer(serializers.ModelSerializer):
    class Meta:
        model = Deck
        fields = ["slug", "title"]


class CardFoundSerializer(serializers.ModelSerializer):
    """A card the card search found: the card as a deck lists it (without `suggested_effect`), and its deck."""

    stats = serializers.DictField(child=serializers.IntegerField())
    effect = EffectField(read_only=True)
    deck = CardDeckSerializer(help_text="The deck the card is in.")

    class Meta:
        model = Card
        fields = ["id", "title", "type", "text", "flavor", "copies", "corner_value", "creator", "stats", "out_of_turn",
                  "effect", "deck"]


class CardSearchQuerySerializer(serializers.Serializer):
    """The card search's query; each left out (or empty) means any."""

    q = serializers.CharField(required=False, max_length=200, help_text="Words in the card's title or text. "
                              + SEARCH_HELP)
    type = serializers.CharField(required=False, max_length=50, help_text="The card's type, exactly: Thing, Action, "
                                 "or a type of the deck's own (Soldier).")
    deck = serializers.SlugField(required=False, max_length=200, help_text="Only the cards of the deck of this slug.")

# --- requests ------------------------------------------------------------------------------------------


class SpecialRuleInputSerializer(StrictTypes):
    title = serializers.CharField(allow_blank=True, required=False, default="", max_length=200)
    text = serializers.CharField(max_length=MAX_RULE_TEXT)
    params = serializers.DictField(required=False, help_text=RULE_PARAMS_HELP)
    effect = EffectField(required=False)


class CardInputSerializer(StrictTypes):
    title = serializers.CharField(max_length=200)
    type = serializers.CharField(max_length=50, required=False, default=THING)
    text = serializers.CharField(allow_blank=True, required=False, default="", max_length=MAX_TEXT)
    flavor = serializers.CharField(allow_blank=True, required=False, default="", max_length=MAX_TEXT)
    copies = serializers.IntegerField(min_value=1, max_value=MAX_COPIES_PER_CARD, required=False, default=1)
    corner_value = serializers.CharField(allow_blank=True, required=False, default="", max_length=50)
    creator = serializers.CharField(allow_blank=True, required=False, default="", max_length=100)
    stats = serializers.DictField(child=serializers.IntegerField(), required=False, default=dict)
    out_of_turn = serializers.BooleanField(required=False, help_text="Defaults to what the card's text says.")
    effect = EffectField(required=False)
    summary = serializers.CharField(allow_blank=True, required=False, default="", max_length=300,
                                    help_text="The revision's summary.")

    def to_card(self) -> CardData:
        values = {name: value for name, value in self.validated_data.items() if name != "summary"}
        return CardData.from_dict(values)


class CardPatchSerializer(CardInputSerializer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, partial=True, **kwargs)


class DeckInputSerializer(StrictTypes):
    slug = new_deck_slug(required=False, allow_blank=True,
                                 help_text="Made from the title when left out.")
    title = serializers.CharField(max_length=200)
    kind = serializers.ChoiceField(KINDS, required=False, default=DECK)
    designers = serializers.ListField(child=serializers.CharField(max_length=100), required=False, default=list)
    date = serializers.CharField(allow_blank=True, required=False, default="", max_length=100)
    players = serializers.CharField(allow_blank=True, required=False, default="", max_length=50)
    status = serializers.ChoiceField(list(STATUSES), allow_blank=True, required=False, default="")
    ruleset = serializers.CharField(required=False, default=DEFAULT_RULESET, max_length=100)
    description = serializers.CharField(allow_blank=True, required=False, default="", max_length=20000)
    special_rules = SpecialRuleInputSerializer(many=True, required=False, default=list)
    cards = CardInputSerializer(many=True, required=False, default=list)
    summary = serializers.CharField(allow_blank=True, required=False, default="", max_length=300)

    def to_deck(self) -> DeckData:
        values = dict(self.validated_data)
        values.pop("summary")
        values["cards"] = [{k: v for k, v in card.items() if k != "summary"} for card in values["cards"]]
        return DeckData.from_dict(values)


class DeckPatchSerializer(StrictTypes):
    title = serializers.CharField(max_length=200, required=False)
    kind = serializers.ChoiceField(KINDS, required=False)
    designers = serializers.ListField(child=serializers.CharField(max_length=100), required=False)
    date = serializers.CharField(allow_blank=True, required=False, max_length=100)
    players = serializers.CharField(allow_blank=True, required=False, max_length=50)
    status = serializers.ChoiceField(list(STATUSES), allow_blank=True, required=False)
    ruleset = serializers.CharField(required=False, max_length=100)
    description = serializers.CharField(allow_blank=True, required=False, max_length=20000)
    special_rules = SpecialRuleInputSerializer(many=True, required=False,
                                               help_text="Replaces all of the deck's Special Rules.")
    summary = serializers.CharField(allow_blank=True, required=False, default="", max_length=300)

    def changes(self) -> dict[str, Any]:
        values = dict(self.validated_data)
        values.pop("summary")
        if "special_rules" in values:
            values["special_rules"] = [SpecialRuleData(**rule).to_dict() for rule in values["special_rules"]]
        return values


class _ImportTextField(serializers.CharField):
    """The text to import, null characters kept: the importer refuses them naming their line, which DRF's
    generic "Null characters are not allowed." does not."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.validators = [
            validator for validator in self.validators if not isinstance(validator, ProhibitNullCharactersValidator)
        ]


class ImportSerializer(StrictTypes):
    format = serializers.ChoiceField(list(importers.FORMATS))
    text = _ImportTextField(trim_whitespace=False)
    slug = new_deck_slug(required=False, allow_blank=True,
                                 help_text="A slug for the imported deck, when the text holds only one.")


class ImportedSerializer(serializers.Serializer):
    decks = DeckSerializer(many=True)


class ExportFormatSerializer(serializers.Serializer):
    format = serializers.ChoiceField(list(exporters.FORMATS))


class RevisionSerializer(serializers.ModelSerializer):
    author = serializers.SerializerMethodField()

    class Meta:
        model = Revision
        fields = ["number", "author", "created_at", "summary"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_author(self, revision: Revision) -> str | None:
        return revision.author.get_username() if revision.author else None


class DeckFieldsSerializer(serializers.Serializer):
    """The deck's own fields as stored content (`DeckData.to_dict()`) has them: revisions and set versions."""

    slug = serializers.CharField()
    title = serializers.CharField()
    kind = serializers.ChoiceField(KINDS)
    designers = serializers.ListField(child=serializers.CharField())
    date = serializers.CharField()
    players = serializers.CharField()
    status = serializers.CharField()
    locked = serializers.BooleanField()
    ruleset = serializers.CharField()
    description = serializers.CharField()


class DeckContentSerializer(DeckFieldsSerializer):
    """A deck as a revision stored it, with the revision's own facts."""

    special_rules = SpecialRuleInputSerializer(many=True)
    cards = CardInputSerializer(many=True)
    revision = serializers.IntegerField()
    author = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    summary = serializers.CharField()


class RevisionDiffSerializer(serializers.Serializer):
    slug = serializers.CharField()
    against = serializers.IntegerField(help_text="The older revision.")
    number = serializers.IntegerField(help_text="The newer revision.")
    diff = serializers.CharField(help_text="A unified diff of the two revisions as text.")


class TalkPostSerializer(serializers.ModelSerializer):
    """A post; a hidden post's `body` is empty unless the context says the reader is a curator (`curator`)."""

    author = serializers.SerializerMethodField()
    body = serializers.SerializerMethodField(help_text="The text as written; empty for a post a curator hid, "
                                                       "unless you are a curator.")
    reply_to = serializers.IntegerField(source="reply_to_id", allow_null=True, read_only=True,
                                        help_text="The post this one answers, or null.")
    hidden = serializers.BooleanField(read_only=True, help_text="A curator hid the post.")
    hidden_at = serializers.DateTimeField(read_only=True, allow_null=True, help_text="When it was hidden, or null.")

    class Meta:
        model = TalkPost
        fields = ["id", "author", "body", "created_at", "reply_to", "hidden", "hidden_at"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_author(self, post: TalkPost) -> str | None:
        return post.author.get_username() if post.author else None

    @extend_schema_field(serializers.CharField())
    def get_body(self, post: TalkPost) -> str:
        if post.hidden and not self.context.get("curator", False):
            return ""
        return post.body


class TalkPostInputSerializer(StrictTypes):
    body = serializers.CharField(trim_whitespace=False)
    reply_to = serializers.IntegerField(required=False, allow_null=True, default=None)


class ExportQuerySerializer(StrictTypes):
    layout = serializers.ChoiceField(
        list(exporters.LAYOUTS), required=False, default="poker",
        help_text="pdf only: `poker` (2.5 x 3.5 in cards, 9 to a page) or `record` (5 x 3 in record cards, as "
        "many as fit). Other formats ignore it.")
    paper = serializers.ChoiceField(
        list(exporters.PAPERS), required=False, default="letter",
        help_text="pdf only: `letter` (8.5 x 11 in) or `a4` (210 x 297 mm). Other formats ignore it.")


class EffectsConfirmSerializer(StrictTypes):
    cards = serializers.ListField(child=serializers.IntegerField(), required=False, max_length=MAX_CARDS_PER_DECK,
                                  help_text="Ids of the cards to confirm (their reading, even in part).")
    special_rules = serializers.ListField(child=serializers.IntegerField(), required=False,
                                          max_length=MAX_CARDS_PER_DECK,
                                          help_text="Ids of the Special Rules to confirm.")


class EffectsConfirmedSerializer(serializers.Serializer):
    cards = CardSerializer(many=True, help_text="The cards whose effect was confirmed.")
    special_rules = SpecialRuleSerializer(many=True, help_text="The Special Rules whose effect was confirmed.")
    revision = serializers.IntegerField(help_text="The deck's latest revision (one more when anything was confirmed).")
