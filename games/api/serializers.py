"""Request and response shapes of the game API, for validation and the OpenAPI schema."""

from rest_framework import serializers

from dvorak_engine.bots import LEVELS
from dvorak_engine.rulesets import ruleset_names
from dvorak_engine.state import STATUSES
from dvorak_kit.api.params import EffectField, QueryBooleanField, StrictTypes, new_deck_slug
from games.models import SPECTATORS

VARIANTS = ["standard", "team", "multi_deck", "ccg"]
# open, active, voting, finished (won), abandoned (no winner) and cancelled (called off before it started)
GAME_STATUSES = list(STATUSES)


class RulesetField(serializers.ChoiceField):
    """One of the rulesets registered now: DRF builds a form's fields anew for each request, so a ruleset added to
    the registry is taken without a change here."""

    def __init__(self, **kwargs):
        super().__init__(choices=ruleset_names(), **kwargs)


class GameCreateSerializer(StrictTypes):
    deck = serializers.SlugField(help_text="Slug of the archive deck to play.")
    variant = serializers.ChoiceField(
        choices=VARIANTS, required=False,
        help_text="By default the ruleset's own: `standard`, except Filibuster's, which is `ccg` (a CCG set).")
    creative = serializers.BooleanField(default=False)
    max_players = serializers.IntegerField(
        min_value=2, max_value=20, required=False,
        help_text="Seats at the table; by default five, or the ruleset's most if it is for fewer.")
    options = serializers.DictField(
        required=False, default=dict,
        help_text="Options of the game (docs/api.md, `POST /games/`), among them `spectators`: `anyone` (default), "
                  "`players` or `nobody`, who besides its players may watch it.")
    ruleset = RulesetField(required=False, help_text="Defaults to the deck's ruleset.")
    invite = serializers.ListField(
        child=serializers.CharField(max_length=150), required=False, max_length=20,
        help_text="Usernames of the players you invite: each gets a notice (`GET /notifications/`, `data.kind` "
                  "`invitation`) and accepts by joining; an unknown username is 400 `invalid`. With "
                  "`options.invite_only` `true` only they may join (anyone else: 403 `not_invited`).")

    def validate_options(self, options: dict) -> dict:
        spectators = options.get("spectators", SPECTATORS[0])
        if spectators not in SPECTATORS:
            raise serializers.ValidationError(f"`spectators` is one of {list(SPECTATORS)}.")
        return options


class GameJoinSerializer(StrictTypes):
    team = serializers.CharField(max_length=60, required=False)
    player_deck = serializers.IntegerField(required=False, help_text="CCG: the id of your player deck.")
    deck = serializers.SlugField(
        required=False,
        help_text="Multi-Deck: the slug of the archive deck your side plays (by default the game's own); in a game "
                  "of another variant 409 `not_multi_deck`.")


class CardSerializer(serializers.Serializer):
    id = serializers.CharField()
    title = serializers.CharField()
    type = serializers.CharField()
    text = serializers.CharField()
    flavor = serializers.CharField(required=False)
    corner_value = serializers.CharField(required=False)
    creator = serializers.CharField(required=False)
    stats = serializers.DictField(required=False)
    effect = EffectField(required=False, help_text="Its confirmed effect (the effect language's JSON list), only "
                                                   "when it has one: from the deck, or voted in with the card.")


class TurnSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    stage = serializers.ChoiceField(choices=["draw", "play", "discard"])
    things_played = serializers.IntegerField()
    actions_played = serializers.IntegerField()


class PlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    team = serializers.CharField(allow_null=True)
    status = serializers.CharField()
    hand_count = serializers.IntegerField(required=False, help_text="dvorak (and rulesets with hands of cards).")
    hand = CardSerializer(many=True, required=False, help_text="Only in your own seat.")
    in_play = serializers.ListField(child=serializers.DictField(), required=False,
                                    help_text="dvorak: cards, each with 'attached': [cards].")
    counters = serializers.DictField(required=False)
    bot = serializers.CharField(required=False,
                                help_text="A computer player's level, `random` or `greedy` (`POST /games/{id}/bots/`); "
                                          "absent for a person.")


class ClockSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    deadline = serializers.DateTimeField(allow_null=True, help_text="By when the seat must decide, while the game "
                                                                    "waits on it; else null.")
    bank = serializers.FloatField(required=False, help_text="Bank clocks: the seconds left, as they stood when the "
                                                            "seat's clock last stopped.")


class ClockSerializer(serializers.Serializer):
    per_move = serializers.FloatField(required=False, help_text="Seconds for each decision.")
    initial = serializers.FloatField(required=False, help_text="Each seat's bank at the start, in seconds.")
    increment = serializers.FloatField(required=False, help_text="Seconds added to a seat's bank by its own move.")
    seats = ClockSeatSerializer(many=True)


class UndoSerializer(serializers.Serializer):
    to = serializers.IntegerField(help_text="The version the game would go back to.")
    by = serializers.IntegerField(help_text="The seat that asked.")
    accepted = serializers.ListField(child=serializers.IntegerField(), help_text="The seats that have accepted.")


class PileCountSerializer(serializers.Serializer):
    count = serializers.IntegerField()


DVORAK_ONLY = "The dvorak ruleset's table (and Article II's); absent where a ruleset lays out a `board` of its own."


class GameStateSerializer(serializers.Serializer):
    """The state's envelope, which every ruleset keeps, then the dvorak ruleset's table or another ruleset's
    `board` (docs/api.md, "The state a seat sees", and each ruleset's section)."""

    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    version = serializers.IntegerField()
    ruleset = serializers.CharField()
    you = serializers.IntegerField(allow_null=True, help_text="Your seat, or null for a spectator.")
    players = PlayerSerializer(many=True)
    winners = serializers.ListField(child=serializers.IntegerField())
    board = serializers.DictField(required=False, allow_null=True,
                                  help_text="A ruleset with a table of its own (rock_paper_scissors_extreme, serm, "
                                            "socialism, filibuster, virtues_of_the_drake, draft): null before the "
                                            "start.")
    variant = serializers.CharField(
        required=False, help_text="As created: in the dvorak ruleset's table (and Article II's), and in Filibuster's "
                                  "state beside its `board`; absent in the other rulesets' states.")
    creative = serializers.BooleanField(required=False, help_text=DVORAK_ONLY)
    turn = TurnSerializer(allow_null=True, required=False, help_text=DVORAK_ONLY)
    draw_pile = PileCountSerializer(required=False, help_text=DVORAK_ONLY)
    discard_pile = CardSerializer(many=True, required=False, help_text="Top last. " + DVORAK_ONLY)
    blank_cards = serializers.IntegerField(required=False, help_text=DVORAK_ONLY)
    rules = serializers.DictField(
        required=False,
        help_text="The rules the game is played by. dvorak (and Article II): the rule parameters as they stand for you "
                  "(`hand_limit`, `starting_hand`, `draws_per_turn`, `things_per_turn`, `actions_per_turn`, "
                  "`vote_rule`, `counters`). serm: its options. filibuster: its options `filibusters` and `dice` "
                  "(absent for a game created before they were written). draft: its options `packs`, `pack_size`, "
                  "`pool` and `rarity`.")
    clock = ClockSerializer(required=False, help_text="Only in a game created with `options.clock`.")
    undo = UndoSerializer(required=False, help_text="Only while an undo is asked (`undo`), until it is answered.")
    invited = serializers.ListField(child=serializers.CharField(), required=False,
                                    help_text="The usernames invited when the game was created (`invite`); absent "
                                              "when nobody was.")
    unenforced = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="dvorak, games created under the rulebook's second reading (`reading` 2 in `game.created`): the "
                  "Basic Rule numbers (`hand_limit`, `starting_hand`, `draws_per_turn`, `things_per_turn`, "
                  "`actions_per_turn`) the server does not hold players to, each named by a Special Rule in effect "
                  "that it does not read and that sets no value for it; `[]` when none. Absent in older games.")
    special_rules = serializers.ListField(
        child=serializers.DictField(), required=False,
        help_text="The Special Rules in effect, `{id, title, text, effect}`: `effect` is what the game understands "
                  "the rule to do (the effect language's JSON list), or null. " + DVORAK_ONLY)
    proposals = serializers.ListField(child=serializers.DictField(), required=False, help_text=DVORAK_ONLY)
    claims = serializers.ListField(child=serializers.DictField(), required=False,
                                   help_text="Moves citing a card the server does not understand, put to the "
                                             "table (option `unread_effects`). " + DVORAK_ONLY)


class EventSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    type = serializers.CharField(help_text="A stable name such as card.drawn.")
    actor = serializers.CharField()
    at = serializers.DateTimeField()
    data = serializers.DictField(help_text="Redacted for the caller: hidden cards do not appear at all.")


class EventsSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    events = EventSerializer(many=True)


class GameListQuerySerializer(serializers.Serializer):
    mine = QueryBooleanField(help_text="Only games in which you hold a seat.")
    status = serializers.ChoiceField(GAME_STATUSES, required=False, help_text="Only games in this state.")
    invited = QueryBooleanField(help_text="Only games you are invited to (by their invitation notices), also those "
                                          "whose `options.spectators` is not `anyone`.")


class GameSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    deck = serializers.CharField(source="deck_slug")
    deck_title = serializers.CharField()
    ruleset = serializers.CharField()
    variant = serializers.CharField()
    creative = serializers.BooleanField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    max_players = serializers.IntegerField()
    players = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    def get_players(self, game) -> list[str]:
        return [seat.user.get_username() for seat in game.seats.all()]


class MushLineSerializer(StrictTypes):
    line = serializers.CharField(max_length=2000, trim_whitespace=True)


class MushAnswerSerializer(serializers.Serializer):
    lines = serializers.ListField(child=serializers.CharField())
    version = serializers.IntegerField()


class PublishSerializer(StrictTypes):
    new_deck = serializers.BooleanField(default=False, help_text="Publish as a new deck instead of a new revision.")
    slug = new_deck_slug(required=False, help_text="With new_deck: the new deck's slug.")
    title = serializers.CharField(max_length=200, required=False, help_text="With new_deck: its title.")
    summary = serializers.CharField(max_length=200, required=False, default="")


class PublishedDeckSerializer(serializers.Serializer):
    deck = serializers.CharField(help_text="The archive deck's slug.")
    revision = serializers.IntegerField(help_text="The revision it became.")


class PublishedSerializer(serializers.Serializer):
    deck = serializers.CharField(help_text="The archive deck's slug.")
    revision = serializers.IntegerField(help_text="The revision the game's deck became.")
    decks = PublishedDeckSerializer(
        many=True, required=False,
        help_text="Multi-Deck games where each side played its own deck: every archive deck published, the game's "
                  "own first, then each other side's deck the game changed.")


class MovesSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The game's version the moves are legal at.")
    moves = serializers.ListField(
        child=serializers.DictField(),
        help_text='Complete command bodies for POST /commands/. A field the client must choose is '
                  '{"choose": k, "from": [values], "list": true|false}: pick k different values of "from" and send '
                  'them as a list when "list" is true, else the one value itself.',
    )


class BotSerializer(StrictTypes):
    level = serializers.ChoiceField(choices=LEVELS,
                                    help_text="`random`: any listed move; `greedy`: the move that looks best for "
                                              "its seat one move ahead.")
    player_deck = serializers.IntegerField(
        required=False,
        help_text="CCG: the id of one of your player decks, which the computer player plays a copy of; by default "
                  "the one you brought. Refused as a join with it would be.")


class BotSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="The computer player's seat.")
    username = serializers.CharField(help_text="Its account's name, `Computer 1` to `Computer 20`.")
    bot = serializers.CharField(help_text="Its level, as asked: `random` or `greedy`.")
    version = serializers.IntegerField(help_text="The game's version after it sat down.")
