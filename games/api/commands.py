"""The catalogue of game commands: one serializer per command type, for ``POST /games/{id}/commands/``.

The engine dispatches a command by its ``type`` (``@command("draw")`` in ``dvorak_engine/rulesets/*.py`` and
``dvorak_engine/rulesets/dvorak/creative.py``) and reads the rest of the body itself. This catalogue says what each body looks
like, and it is the one source of two things: the OpenAPI schema of the request (``COMMAND_SCHEMA``, a oneOf
with a discriminator on ``type``; ``propose`` is itself a oneOf on ``kind``) and the check the view makes
before the service is called (``command_check``), so that what the schema admits and what the server accepts
cannot drift apart. The check refuses only bodies the engine would refuse too (400 ``invalid``, or
``unknown_command`` for a type no ruleset has); everything that depends on the game (whose turn, which cards
a player can see) is still the engine's to decide. A command of a ruleset that is not catalogued here (a new
game brings only its own files) passes to the engine, which checks its body itself. ``tests/games/test_command_catalogue.py`` holds it to the
engine: every command type a ruleset accepts is here, and nothing else is.

Field types are strict, as JSON Schema's are: ``"5"`` is not an integer and ``1`` is not ``true``, which is
what the engine reads too. The reference for people is ``docs/api.md``, "Commands".
"""

from __future__ import annotations

import threading
from typing import Any

from drf_spectacular.utils import OpenApiExample, PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from dvorak_core.errors import DomainError
from dvorak_engine.rulesets import all_rulesets
from dvorak_kit.api.params import EffectField, StrictTypes

DVORAK, ARTICLE_II = "dvorak", "article_ii"
SEAT_HELP = "A seat number (0 is the first player)."
CAUSE_HELP = ("The card (its id) or Special Rule whose text this move carries out; you must be able to see it "
              "(set_rule and end_rule_effect: a Special Rule, a Thing you control in play or a card you played "
              "this turn, whose text speaks of the rule parameter).")
# The engine's limits (dvorak_engine.rulesets.dvorak.creative): a title, a text, a bundle.
MAX_TITLE, MAX_TEXT, MAX_BUNDLE = 200, 4000, 20
SNAKE_CASE = r"^[a-z][a-z0-9_]{0,63}$"


# --- strict fields: JSON types as they are, no coercion ----------------------------------------------------------


class Text(serializers.CharField):
    """A JSON string (a number is not one), untrimmed unless said."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class Pattern(serializers.RegexField):
    """A JSON string matching a pattern."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class UniqueList(serializers.ListField):
    """A list whose items are all different (``uniqueItems`` in the schema)."""

    unique_items = True

    def to_internal_value(self, data: Any) -> list:
        items = super().to_internal_value(data)
        if len({repr(item) for item in items}) != len(items):
            raise ValidationError("Name each one once.")
        return items


class Whole(serializers.IntegerField):
    """A JSON integer (not a string of digits, not true or false, not 2.0)."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class Flag(serializers.BooleanField):
    """JSON true or false, nothing else."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class AnyValue(serializers.JSONField):
    """Any JSON value, null included."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_null=True, **kwargs)


@extend_schema_field({"not": {}})
class Absent(serializers.Field):
    """A field this command must not carry; the help text says where it belongs instead."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        raise ValidationError(self.help_text)


def type_field(name: str) -> serializers.Field:
    @extend_schema_field({"type": "string", "enum": [name]})
    class CommandType(serializers.ChoiceField):
        pass

    return CommandType(choices=[name], help_text=f"`{name}`")


def card_id(help_text: str = "A card's id, as the state shows it to you.", **kwargs: Any) -> Text:
    return Text(min_length=1, help_text=help_text, **kwargs)


def seat(help_text: str = SEAT_HELP, **kwargs: Any) -> Whole:
    return Whole(min_value=0, help_text=help_text, **kwargs)


def cause(**kwargs: Any) -> Text:
    return Text(min_length=1, help_text=CAUSE_HELP, **kwargs)


class Closed(StrictTypes):
    """An object that takes no fields but its own (``additionalProperties: false`` in the schema), and with
    ``at_least_one`` not none of them (``minProperties: 1``): the engine reads these objects whole."""

    closed = True
    at_least_one = False

    def to_internal_value(self, data: Any) -> dict:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise ValidationError({name: ["Not a field of this object."] for name in unknown})
            if self.at_least_one and not data:
                raise ValidationError({"non_field_errors": ["Change at least one field."]})
        return super().to_internal_value(data)


class Command(StrictTypes):
    """A command: ``type`` and its own fields. Fields it does not know are left to the engine, which ignores
    them (clients may send more than a command needs)."""

    name = ""
    rulesets: tuple[str, ...] = (DVORAK,)
    example: dict[str, Any] = {}

    @classmethod
    def examples(cls) -> list[dict[str, Any]]:
        return [{"type": cls.name, **cls.example}]


# --- the turn ------------------------------------------------------------------------------------------------------


class Draw(Command):
    """The turn's draw: stage draw → play. An empty draw pile is first refilled by shuffling the discard pile."""

    name = "draw"
    type = type_field(name)


class Play(Command):
    """Play a card from your hand. `dvorak`: a Thing (onto another Thing with `onto`) or an Action, within the
    turn's limits, or out of turn when its text allows. `article_ii`: a card on a player (`target`), its effect
    carried out by the engine."""

    name = "play"
    rulesets = (DVORAK, ARTICLE_II)
    type = type_field(name)
    card = card_id("The card in your hand.")
    onto = card_id("`dvorak`: a Thing in play to play this Thing onto.", required=False)
    target = seat("`dvorak`: a seat the card is played on, where a card names one (an Action the server carries "
                  "out whole: its chosen player). `article_ii`: required, the player the card is played on "
                  "(yourself included).", required=False)
    targets = UniqueList(child=card_id(), required=False, help_text=(
        "`dvorak`, with `unread_effects` `claim` or `vote`: the cards an Action the server carries out whole "
        "chooses (to discard, destroy, take or give), as many as it chooses; only for such an Action."))
    remove = card_id("`article_ii`, Voter ADHD (\"Remove one card from play\"): the card in play in front of the "
                     "target to remove. Optional: without it the server removes the only card there is, or, when "
                     "there are several, the play waits for a `remove` command naming one.", required=False)
    remove_before = card_id("`article_ii`, the Teflon Wonder (\"Before playing a card, you may remove a card that's "
                            "been played on you\"): a card in play in front of you to remove first. Optional.",
                            required=False)
    example = {"card": "3f2a9c1d0b7e4a65"}


class Use(Command):
    """Use a Thing's "Action: …" ability, in place of the turn's Action."""

    name = "use"
    type = type_field(name)
    card = card_id("A Thing of yours in play whose text has \"Action:\".")
    example = {"card": "3f2a9c1d0b7e4a65"}


class Discard(Command):
    """Discard: in the discard stage down to the hand limit, or (with `cause`) as a card's effect."""

    name = "discard"
    type = type_field(name)
    cards = UniqueList(child=card_id(), min_length=1, help_text="Different cards from your hand.")
    cause = cause(required=False)
    example = {"cards": ["3f2a9c1d0b7e4a65", "9b0c7e2d4f1a3865"]}


class EndTurn(Command):
    """End the turn. `dvorak`: refused while you hold more cards than the hand limit. `article_ii`: the same as
    `pass` (after the turn's card, or to decline a Great Debater's reply)."""

    name = "end_turn"
    rulesets = (DVORAK, ARTICLE_II)
    type = type_field(name)


# --- effect moves: carrying out a card's text (each names its `cause`) ---------------------------------------------


class Move(Command):
    """Move a card you can see to a hand, the discard pile, into play or onto the draw pile."""

    name = "move"
    type = type_field(name)
    cause = cause()
    card = card_id("A card you can see.")
    to = serializers.ChoiceField(["hand", "discard", "in_play", "draw_top", "draw_bottom"])
    seat = seat("Whose hand or play area (`hand`, `in_play`); yours when left out.", required=False)
    onto = card_id("With `in_play`: a Thing in play to put this one onto.", required=False)
    example = {"cause": "3f2a9c1d0b7e4a65", "card": "9b0c7e2d4f1a3865", "to": "hand", "seat": 1}


class Destroy(Command):
    """Destroy a Thing in play: it goes to the discard pile, with the Things played onto it."""

    name = "destroy"
    type = type_field(name)
    cause = cause()
    card = card_id("A Thing in play.")
    example = {"cause": "3f2a9c1d0b7e4a65", "card": "9b0c7e2d4f1a3865"}


class TakeRandom(Command):
    """Take a random card from another player's hand."""

    name = "take_random"
    type = type_field(name)
    cause = cause()
    from_ = seat("The player to take from.")
    opponent = Flag(required=False, help_text="true when the card says an opponent (Team Dvorak: not a team-mate).")
    example = {"cause": "3f2a9c1d0b7e4a65", "from": 1}

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")  # a Python keyword
        return fields


class Give(Command):
    """Give a card from your hand to another player: as a card's effect (with `cause`), or in Team Dvorak to a
    team-mate in place of the turn's Action (without `cause`)."""

    name = "give"
    type = type_field(name)
    card = card_id("The card in your hand.")
    to = seat("The player who gets it.")
    cause = cause(required=False)
    opponent = Flag(required=False, help_text="true when the card says an opponent.")
    example = {"card": "3f2a9c1d0b7e4a65", "to": 2}


class Counter(Command):
    """Change a player's counter (points, Gold, …) by `delta`."""

    name = "counter"
    type = type_field(name)
    cause = cause()
    seat = seat("Whose counter.")
    name_ = Pattern(SNAKE_CASE, help_text="The counter, in snake_case.")
    delta = Whole(help_text="How much to add (negative to take away).")
    example = {"cause": "3f2a9c1d0b7e4a65", "seat": 0, "name": "points", "delta": 2}

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["name"] = fields.pop("name_")  # `name` is the command's own name on the class
        return fields


class Roll(Command):
    """Roll dice; the server rolls them and writes the result in the event."""

    name = "roll"
    type = type_field(name)
    cause = cause()
    dice = Pattern(r"^\d{1,2}d\d{1,4}$", help_text="Like `2d6`: 1 to 99 dice of 2 to 9999 sides.")
    example = {"cause": "3f2a9c1d0b7e4a65", "dice": "2d6"}


class Reveal(Command):
    """Show everyone a card from your hand."""

    name = "reveal"
    type = type_field(name)
    cause = cause()
    card = card_id("The card in your hand.")
    example = {"cause": "3f2a9c1d0b7e4a65", "card": "9b0c7e2d4f1a3865"}


class Shuffle(Command):
    """Shuffle the draw pile or the discard pile."""

    name = "shuffle"
    type = type_field(name)
    cause = cause()
    pile = serializers.ChoiceField(["draw", "discard"])
    seat = seat("Multi-Deck Dvorak: whose pile; yours when left out.", required=False)
    example = {"cause": "3f2a9c1d0b7e4a65", "pile": "draw"}


class SetRule(Command):
    """Change a rule parameter (hand_limit, draws_per_turn, …) as a card says, for as long as it says (`until`).
    The card cited must be yours to cite and speak of the parameter (else 409 `not_citable`)."""

    name = "set_rule"
    type = type_field(name)
    cause = cause()
    param = Pattern(SNAKE_CASE, help_text="The rule parameter (not `counters`).")
    value = AnyValue(required=False, help_text="Its new value; required unless `deny` is true.")
    deny = Flag(required=False, help_text="true: the rule is denied (no value means none at all, or no).")
    seat = seat("Only for this player; everyone when left out or null.", required=False, allow_null=True)
    card = Text(required=False, allow_null=True, allow_blank=True, help_text="Only for this card (one you can see).")
    until = serializers.ChoiceField(
        ["leaves_play", "end_of_turn", "ended"], required=False,
        help_text="How long the change lasts: while the Thing cited stays in play (`leaves_play`, the default for a "
                  "Thing of yours in play), until the end of the turn (`end_of_turn`, the default for a card just "
                  "played) or until a player ends it (`ended`, the default for a Special Rule).")
    turns = Whole(min_value=1, max_value=100, required=False,
                  help_text="With `end_of_turn`: how many turns end before the change does, this one counted (1).")
    example = {"cause": "3f2a9c1d0b7e4a65", "param": "hand_limit", "value": 7}

    def validate_param(self, param: str) -> str:
        if param == "counters":
            raise ValidationError("counters are changed with the counter command.")
        return param


class EndRuleEffect(Command):
    """End a rule change made with `set_rule` before its time: your own at any time; another player's with a
    card you may cite for its parameter (`cause`)."""

    name = "end_rule_effect"
    type = type_field(name)
    effect = Whole(min_value=1, help_text="The change's number: its `id` in the state's `modifiers`.")
    cause = cause(required=False)
    example = {"effect": 14}


# --- the end of the game ----------------------------------------------------------------------------------------


class Win(Command):
    """Win the game, as a card says (Team Dvorak: your team wins)."""

    name = "win"
    type = type_field(name)
    cause = cause()
    seats = UniqueList(child=seat(), min_length=1, required=False,
                       help_text="The winners, when the card names others than you; players still in.")
    example = {"cause": "3f2a9c1d0b7e4a65"}


class Eliminate(Command):
    """Knock a player out, as a card says; the last player standing wins."""

    name = "eliminate"
    type = type_field(name)
    cause = cause()
    seat = seat("The player knocked out.")
    opponent = Flag(required=False, help_text="true when the card says an opponent.")
    example = {"cause": "3f2a9c1d0b7e4a65", "seat": 1}


class Concede(Command):
    """Leave the game; the last player standing wins."""

    name = "concede"
    type = type_field(name)


# --- the Creative Rules: proposals and votes ------------------------------------------------------------------


PROPOSED_EFFECT_HELP = ("Its effect in the effect language (docs/effects.md), approved by the vote with the text; "
                        "a malformed one is 400 `invalid` naming its place (`card.effect[0].count`). A Special "
                        "Rule's `set_rule` effects set its `params`.")


class NewCard(Closed):
    """A new card's content."""

    title = Text(max_length=MAX_TITLE, trim_whitespace=True, help_text="Not blank.")
    type = serializers.ChoiceField(["Thing", "Action"])
    text = Text(max_length=MAX_TEXT, required=False, allow_null=True, allow_blank=True)
    flavor = Text(max_length=MAX_TEXT, required=False, allow_null=True, allow_blank=True)
    corner_value = Text(max_length=MAX_TEXT, required=False, allow_null=True, allow_blank=True)
    effect = EffectField(required=False, help_text=PROPOSED_EFFECT_HELP)
    deck = seat("Multi-Deck Dvorak: the seat whose deck it goes into; yours when left out.", required=False)


class CardChanges(Closed):
    """The fields of a card that an amendment changes."""

    title = Text(max_length=MAX_TITLE, trim_whitespace=True, required=False, help_text="Not blank.")
    type = serializers.ChoiceField(["Thing", "Action"], required=False)
    text = Text(max_length=MAX_TEXT, required=False, allow_null=True, allow_blank=True)
    flavor = Text(max_length=MAX_TEXT, required=False, allow_null=True, allow_blank=True)
    corner_value = Text(max_length=MAX_TEXT, required=False, allow_null=True, allow_blank=True)
    effect = EffectField(required=False, help_text=PROPOSED_EFFECT_HELP)
    at_least_one = True


class RuleParams(serializers.DictField):
    """A Special Rule's parameters: rule parameters in snake_case to values (`vote_rule`, `counters`, …)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=AnyValue(), **kwargs)


class NewSpecialRule(Closed):
    """A new Special Rule."""

    title = Text(max_length=MAX_TITLE, trim_whitespace=True, help_text="Not blank.")
    text = Text(max_length=MAX_TEXT, required=False, allow_null=True, allow_blank=True)
    params = RuleParams(required=False, allow_null=True,
                        help_text="Machine-readable parameters: `vote_rule`, `counters` ({name: start}), or any "
                                  "rule parameter (`hand_limit`, …).")
    effect = EffectField(required=False, help_text=PROPOSED_EFFECT_HELP)


class RuleChanges(Closed):
    """The fields of a Special Rule that an amendment changes."""

    title = Text(max_length=MAX_TITLE, trim_whitespace=True, required=False, help_text="Not blank.")
    text = Text(max_length=MAX_TEXT, required=False, allow_null=True, allow_blank=True)
    params = RuleParams(required=False, allow_null=True)
    effect = EffectField(required=False, help_text=PROPOSED_EFFECT_HELP)
    at_least_one = True


class Proposal(Command):
    """A proposal under the Creative Rules (creative games only; at any time, also before the start): the game
    stops (status `voting`) until it is decided."""

    name = "propose"
    kind_name = ""
    type = type_field(name)

    @classmethod
    def examples(cls) -> list[dict[str, Any]]:
        return [{"type": cls.name, "kind": cls.kind_name, **cls.example}]


def kind_field(name: str) -> serializers.Field:
    @extend_schema_field({"type": "string", "enum": [name]})
    class ProposalKind(serializers.ChoiceField):
        pass

    return ProposalKind(choices=[name], help_text=f"`{name}`")


class ProposeCard(Proposal):
    """A new card, written on a card from the Blank Card Pile; or a rejected card again (`from_rejected`)."""

    kind_name = "card"
    kind = kind_field(kind_name)
    card = NewCard(required=False, help_text="The new card; required unless `from_rejected` is given.")
    from_rejected = card_id("A rejected card's id, proposed again as it was.", required=False)
    example = {"card": {"title": "Armageddon", "type": "Action", "text": "Destroy all Things."}}


class ProposeBundle(Proposal):
    """Several new cards under one vote."""

    kind_name = "bundle"
    kind = kind_field(kind_name)
    cards = serializers.ListField(child=NewCard(), min_length=1, max_length=MAX_BUNDLE)
    example = {"cards": [{"title": "Xenomorph Egg", "type": "Thing", "text": "Hatches."},
                         {"title": "Flamethrower", "type": "Thing", "text": "Destroy an Egg."}]}


class ProposeSpecialRule(Proposal):
    """A new Special Rule; its `params` take effect when it is accepted."""

    kind_name = "special_rule"
    kind = kind_field(kind_name)
    rule = NewSpecialRule()
    example = {"rule": {"title": "Gold", "text": "Each player starts with 3 Gold.", "params": {"counters": {"gold": 3}}}}


class ProposeAmend(Proposal):
    """Amend a card: one in play, in the discard pile or in your hand (with the game option `amend_any_card`,
    any card of the deck, named by `title` when no one can see it)."""

    kind_name = "amend"
    kind = kind_field(kind_name)
    card = card_id("The card's id; or leave it out and give `title`.", required=False)
    title = Text(required=False, help_text="With `amend_any_card`: the card's title, in place of its id.")
    changes = CardChanges(help_text="The fields that change: at least one.")
    example = {"card": "3f2a9c1d0b7e4a65", "changes": {"text": "Destroy all Actions."}}


class ProposeRepeal(Proposal):
    """Repeal a card: it leaves the game entirely. Named as for `amend`."""

    kind_name = "repeal"
    kind = kind_field(kind_name)
    card = card_id("The card's id; or leave it out and give `title`.", required=False)
    title = Text(required=False, help_text="With `amend_any_card`: the card's title, in place of its id.")
    example = {"card": "3f2a9c1d0b7e4a65"}


class ProposeAmendRule(Proposal):
    """Amend a Special Rule."""

    kind_name = "amend_rule"
    kind = kind_field(kind_name)
    rule = Text(min_length=1, help_text="The Special Rule's id.")
    changes = RuleChanges(help_text="The fields that change: at least one.")
    example = {"rule": "house-rule-1", "changes": {"text": "Be very nice."}}


class ProposeRepealRule(Proposal):
    """Repeal a Special Rule."""

    kind_name = "repeal_rule"
    kind = kind_field(kind_name)
    rule = Text(min_length=1, help_text="The Special Rule's id.")
    example = {"rule": "house-rule-1"}


PROPOSALS: dict[str, type[Proposal]] = {shape.kind_name: shape for shape in (
    ProposeCard, ProposeBundle, ProposeSpecialRule, ProposeAmend, ProposeRepeal, ProposeAmendRule, ProposeRepealRule)}


class Vote(Command):
    """A vote on the open proposal (`proposal`), or on an open claim put to the vote (`claim`), by each player the
    vote rule gives a vote."""

    name = "vote"
    type = type_field(name)
    proposal = Whole(min_value=1, required=False, help_text="The proposal's number (or `claim`).")
    claim = Whole(min_value=1, required=False, help_text="The claim's number, to vote on a claim.")
    approve = Flag(help_text="true for, false against.")
    example = {"proposal": 1, "approve": True}

    @classmethod
    def examples(cls) -> list[dict[str, Any]]:
        return [*super().examples(), {"type": cls.name, "claim": 1, "approve": False}]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("proposal" in attrs) == ("claim" in attrs):
            raise ValidationError({"non_field_errors": ["Name either the proposal or the claim you vote on."]})
        return attrs


# --- claims: moves citing a card the server does not understand (option `unread_effects`) ------------------------


class Accept(Command):
    """Accept an open claim (a move citing a card the server does not understand): once every other player still
    in the game accepts, its move is carried out."""

    name = "accept"
    type = type_field(name)
    claim = Whole(min_value=1, help_text="The claim's number.")
    example = {"claim": 1}


class Dispute(Command):
    """Dispute an open claim: it goes to a vote under the game's vote rule (claimant for, you against)."""

    name = "dispute"
    type = type_field(name)
    claim = Whole(min_value=1, help_text="The claim's number.")
    example = {"claim": 1}


class Withdraw(Command):
    """Its author takes a proposal back."""

    name = "withdraw"
    type = type_field(name)
    proposal = Whole(min_value=1, help_text="The proposal's number.")
    example = {"proposal": 1}


# --- Article II ---------------------------------------------------------------------------------------------------


class Pass(Command):
    """`article_ii`: decline a Great Debater's reply, or an Insider's second card; refused before the turn's
    card, since every turn is one card."""

    name = "pass"
    rulesets = (ARTICLE_II,)
    type = type_field(name)


class Remove(Command):
    """`article_ii`: name the card a Voter ADHD played without `remove` takes out of play, when the player it was
    played on had several (the state's `removal.from`)."""

    name = "remove"
    rulesets = (ARTICLE_II,)
    type = type_field(name)
    card = card_id("One of the cards `removal.from` lists.")
    example = {"card": "3f2a9c1d0b7e4a65"}


# --- seats (their own endpoints do the same, and are the way to take a seat in a CCG game) ------------------------


class Join(Command):
    """Take a seat (as `POST /games/{id}/join/`)."""

    name = "join"
    rulesets = (DVORAK, ARTICLE_II)
    type = type_field(name)
    team = Text(max_length=60, trim_whitespace=True, required=False, help_text="Team Dvorak: the team you join.")
    player_deck = Absent(help_text="A CCG game is joined with POST /games/{id}/join/, which checks the player deck.")


class Start(Command):
    """Start the game (seat 0; as `POST /games/{id}/start/`)."""

    name = "start"
    rulesets = (DVORAK, ARTICLE_II)
    type = type_field(name)


COMMANDS: dict[str, type[Command]] = {shape.name: shape for shape in (
    Draw, Play, Use, Discard, EndTurn, Move, Destroy, TakeRandom, Give, Counter, Roll, Reveal, Shuffle, SetRule,
    EndRuleEffect, Win, Eliminate, Concede, Vote, Withdraw, Accept, Dispute, Pass, Remove, Join, Start)}
COMMANDS["propose"] = Proposal


def registered_commands() -> set[str]:
    """Every command type some registered ruleset accepts (a new ruleset's own, uncatalogued, among them)."""
    return {name for ruleset in all_rulesets().values() for name in ruleset.commands} | set(COMMANDS)


# --- the schema and the check -------------------------------------------------------------------------------------

PROPOSAL_SCHEMA = PolymorphicProxySerializer(
    component_name="ProposeCommand",
    serializers={kind: shape for kind, shape in PROPOSALS.items()},
    resource_type_field_name="kind",
)
COMMAND_SCHEMA = PolymorphicProxySerializer(
    component_name="Command",
    serializers={name: (PROPOSAL_SCHEMA if name == "propose" else shape) for name, shape in COMMANDS.items()},
    resource_type_field_name="type",
)


def command_examples() -> list[OpenApiExample]:
    shapes = [shape for shape in COMMANDS.values() if shape is not Proposal] + list(PROPOSALS.values())
    return [
        OpenApiExample(
            name=f"{body['type']} {body.get('kind', '')}".strip(),
            value=body,
            request_only=True,
            description=f"{(shape.__doc__ or '').strip()} Rulesets: {', '.join(shape.rulesets)}.",
        )
        for shape in shapes
        for body in shape.examples()
    ]


def command_check(body: Any) -> None:
    """Refuse a body whose shape the catalogue forbids (400), before the game is loaded."""
    if not isinstance(body, dict) or not isinstance(body.get("type"), str):
        raise ValidationError({"non_field_errors": ["A command is a JSON object with a \"type\"."]})
    shape = COMMANDS.get(body["type"])
    if shape is None:
        known = registered_commands()
        if body["type"] in known:  # a ruleset's own command, not catalogued here: the engine checks its body
            return
        raise DomainError(f"No game has a command {body['type']!r}.", code="unknown_command",
                          details={"known": sorted(known)})
    if shape is Proposal:
        kind = body.get("kind")
        shape = PROPOSALS.get(kind) if isinstance(kind, str) else None
        if shape is None:
            raise ValidationError({"kind": [f"A proposal's kind is one of {', '.join(PROPOSALS)}."]})
    _check(shape, body)


# One checking instance of each shape per thread, used again: a serializer deep-copies its declared fields into each
# new instance, and that copying was a sixth of a card command's CPU under the ASGI server.
_checking = threading.local()


def _check(shape: type[Command], body: dict) -> None:
    instances = _checking.__dict__.setdefault("instances", {})
    serializer = instances.get(shape)
    if serializer is None:
        serializer = instances[shape] = shape()
    # What a new instance with ``data=body`` would hold: the body, and no result of an earlier check.
    serializer.initial_data = body
    for left in ("_validated_data", "_errors", "_data"):
        serializer.__dict__.pop(left, None)
    serializer.is_valid(raise_exception=True)
