"""The CCG JSON shapes (API.md, "CCG"): requests validated into values, responses for the schema."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ccg.models import CardSetVersion, Notification
from ccg.selectors import MIN_CARD_SET_SIZE, TOO_FEW_CARDS, card_set_problems
from decks.api.serializers import CardInputSerializer, DeckFieldsSerializer, SpecialRuleInputSerializer
from decks.exporters.deck_files import MAX_DECK_FILE_CHARS
from decks.services import MAX_CARDS_PER_DECK, MAX_COPIES_PER_CARD
from dvorak_kit.api.params import QueryBooleanField, StrictTypes
from proposals.models import ADD, CHANGE, REMOVE, CardSetChange


class SetProblemSerializer(serializers.Serializer):
    """What the set lacks by the CCG rules: shown, never a refusal (the set is played meanwhile)."""

    code = serializers.ChoiceField([TOO_FEW_CARDS], help_text=f"`{TOO_FEW_CARDS}`: fewer than "
                                   f"{MIN_CARD_SET_SIZE} distinct cards (copies do not count).")
    message = serializers.CharField()
    details = serializers.DictField(help_text=f"`{TOO_FEW_CARDS}`: `{{\"cards\", \"least\"}}`.")


class VersionSerializer(serializers.ModelSerializer):
    changelog = serializers.ListField(child=serializers.CharField())
    problems = serializers.SerializerMethodField(help_text="What the set lacks at this version by the CCG rules "
                                                 "(empty when nothing): never a refusal.")

    class Meta:
        model = CardSetVersion
        fields = ["number", "created_at", "changelog", "problems"]

    @extend_schema_field(SetProblemSerializer(many=True))
    def get_problems(self, version: CardSetVersion) -> list[dict]:
        return card_set_problems(version.content)


class VersionCardSerializer(CardInputSerializer):
    """A card as a version stored it: an `effect` only where one was confirmed, no reader's suggestion."""

    id = serializers.IntegerField()
    summary = None


class VersionSpecialRuleSerializer(SpecialRuleInputSerializer):
    """A Special Rule as a version stored it: `params` and `effect` only where it has them."""

    id = serializers.IntegerField()


class VersionContentSerializer(DeckFieldsSerializer):
    """The set as a version stored it: the archive deck's fields, each card and Special Rule with its id."""

    special_rules = VersionSpecialRuleSerializer(many=True)
    cards = VersionCardSerializer(many=True, help_text="A player deck's entries name these ids.")
    version = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    changelog = serializers.ListField(child=serializers.CharField())
    problems = SetProblemSerializer(many=True, help_text="What the set lacks at this version by the CCG rules "
                                    "(empty when nothing): never a refusal.")


class RegistrationSerializer(serializers.Serializer):
    card_set = serializers.CharField()
    username = serializers.CharField()
    registered_at = serializers.DateTimeField()
    players = serializers.IntegerField(help_text="How many players the set has now.")


class ChangeListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(["open", "accepted", "rejected"], required=False,
                                     help_text="Only changes in this state.")


class ChangeInputSerializer(StrictTypes):
    kind = serializers.ChoiceField(choices=[ADD, CHANGE, REMOVE])
    card = serializers.IntegerField(required=False, help_text="The card's id (change, remove).")
    content = serializers.DictField(
        required=False, help_text="The new card (add) or the fields that change (change): title, type, text, "
        "flavor, copies, corner_value, creator, stats, out_of_turn, effect (the card's confirmed effect: the effect "
        "language's JSON list, or null).",
    )


class ChangeSerializer(serializers.ModelSerializer):
    card = serializers.IntegerField(source="card_id", allow_null=True)
    author = serializers.CharField(source="author.username", allow_null=True, default=None)
    content = serializers.DictField()
    votes = serializers.SerializerMethodField(help_text="username → true (accepts) or false (objects)")
    version = serializers.IntegerField(source="version.number", allow_null=True, default=None,
                                       help_text="The version that took the change in, once built.")

    class Meta:
        model = CardSetChange
        fields = ["id", "kind", "card", "content", "author", "status", "votes", "created_at", "deadline",
                  "decided_at", "version"]

    def get_votes(self, change: CardSetChange) -> dict[str, bool]:
        return {vote.user.username: vote.approve for vote in change.votes.all()}


class EntrySerializer(StrictTypes):
    card = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="A card id of the set's version.")
    count = serializers.IntegerField(min_value=1, max_value=MAX_COPIES_PER_CARD)


class PlayerDeckInputSerializer(StrictTypes):
    card_set = serializers.SlugField()
    name = serializers.CharField(max_length=200)
    entries = EntrySerializer(many=True, max_length=MAX_CARDS_PER_DECK)

    def validate_entries(self, entries: list[dict]) -> dict[int, int]:
        return entries_by_card(entries)


class PlayerDeckPatchSerializer(StrictTypes):
    name = serializers.CharField(max_length=200, required=False)
    entries = EntrySerializer(many=True, required=False, max_length=MAX_CARDS_PER_DECK,
                              help_text="Replaces the deck's entries: tuning.")

    def validate_entries(self, entries: list[dict]) -> dict[int, int]:
        return entries_by_card(entries)


class PlayerDeckCheckInputSerializer(StrictTypes):
    card_set = serializers.SlugField(help_text="The CCG card set the deck would be built from.")
    version = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False,
                                       help_text="The set's version the deck would be built on; its latest when "
                                       "left out (what a new deck is built on).")
    entries = EntrySerializer(many=True, max_length=MAX_CARDS_PER_DECK)

    def validate_entries(self, entries: list[dict]) -> dict[int, int]:
        return entries_by_card(entries)


class PlayerDeckCheckSerializer(serializers.Serializer):
    card_set = serializers.CharField()
    version = serializers.IntegerField(help_text="The version the entries were checked against.")
    size = serializers.IntegerField()
    valid = serializers.BooleanField()
    problems = serializers.ListField(child=serializers.CharField(),
                                     help_text="Each as a stored deck's `problems` would say it.")


def entries_by_card(entries: list[dict]) -> dict[int, int]:
    """card id → copies; the same card twice adds up."""
    counts: dict[int, int] = {}
    for entry in entries:
        counts[entry["card"]] = counts.get(entry["card"], 0) + entry["count"]
    if any(count > MAX_COPIES_PER_CARD for count in counts.values()):
        raise serializers.ValidationError(f"A card has at most {MAX_COPIES_PER_CARD} copies in a deck.")
    return counts


class PlayerDeckEntrySerializer(serializers.Serializer):
    """An entry with its card as the deck's version of the set has it: a new version changes it at once."""

    card = serializers.IntegerField()
    count = serializers.IntegerField()
    title = serializers.CharField()
    type = serializers.CharField()
    text = serializers.CharField()
    flavor = serializers.CharField()
    corner_value = serializers.CharField()
    creator = serializers.CharField()
    stats = serializers.DictField(child=serializers.IntegerField())


class PlayerDeckSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    card_set = serializers.CharField()
    version = serializers.IntegerField()
    latest_version = serializers.IntegerField()
    entries = PlayerDeckEntrySerializer(many=True)
    size = serializers.IntegerField()
    valid = serializers.BooleanField()
    problems = serializers.ListField(child=serializers.CharField())
    in_game = serializers.BooleanField()


class PlayerDeckUpdateSerializer(PlayerDeckSerializer):
    removed = serializers.ListField(child=serializers.CharField(), help_text="Cards taken out.")
    changed = serializers.ListField(child=serializers.CharField(), help_text="Cards whose text changed.")


class NotificationSerializer(serializers.ModelSerializer):
    data = serializers.DictField()

    class Meta:
        model = Notification
        fields = ["id", "subject", "body", "data", "created_at", "read_at"]


class NotificationQuerySerializer(serializers.Serializer):
    unread = QueryBooleanField(help_text="Only notices not yet read.")


class MarkReadSerializer(StrictTypes):
    ids = serializers.ListField(child=serializers.IntegerField(), required=False,
                                help_text="The notices to mark read; all of the caller's when left out.")


class MarkedSerializer(serializers.Serializer):
    marked = serializers.IntegerField()


class PlayerDeckImportSerializer(StrictTypes):
    card_set = serializers.SlugField(help_text="The CCG card set whose cards the file names.")
    text = serializers.CharField(max_length=MAX_DECK_FILE_CHARS, trim_whitespace=False,
                                 help_text="The Cockatrice `.cod` file's text (XML).")
    name = serializers.CharField(max_length=200, required=False, allow_blank=True, default="",
                                 help_text="The deck's name; the file's `<deckname>` when left out.")
