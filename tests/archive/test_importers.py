"""Importing the real seed listings, the wiki's {{card}} markup and MUSHcode into DeckData.

Each test of a seed listing reads its excerpt (tests/fixtures/listings), and the original too where present.
"""

import pytest

from decks.importers import ListingError, UnknownFormatError, import_text
from dvorak_core.deckdata import ACTION, CARD_SET, THING, DeckData, slugify
from tests.seeds import DECK_LISTINGS, RULEBOOK, SOURCES, listing_text, requires_seeds, seeds_dir


@pytest.fixture(scope="module", params=SOURCES)
def source(request) -> str:
    return request.param


def import_seed(name: str, source: str) -> list[DeckData]:
    return import_text(listing_text(name, source), "wiki")


def by_title(decks: list[DeckData]) -> dict[str, DeckData]:
    return {deck.title: deck for deck in decks}


def card(deck: DeckData, title: str):
    return next(card for card in deck.cards if card.title == title)


def rule(deck: DeckData, title: str):
    return next(rule for rule in deck.special_rules if rule.title == title)


# --- the blog post with Article II (twice), Socialism and Virtues of the Drake ------------------------


@pytest.fixture(scope="module")
def blog(source) -> dict[str, DeckData]:
    return by_title(import_seed("article-ii-socialism-virtues-of-the-drake.txt", source))


def test_the_blog_post_imports_as_one_deck_per_game(blog):
    assert list(blog) == ["Article II, updated", "Socialism", "The Virtues of the Drake", "Article II"]
    assert [deck.slug for deck in blog.values()] == [
        "article-ii-updated",
        "socialism",
        "the-virtues-of-the-drake",
        "article-ii",
    ]


def test_updated_article_ii_has_its_styles_and_counted_copies(blog):
    deck = blog["Article II, updated"]
    assert len(deck.cards) == 28
    assert deck.card_count == 51
    styles = [card.title for card in deck.cards if card.type == "Style"]
    assert len(styles) == 12
    assert styles[0] == "Screaming Partisan" and styles[-1] == "The Teflon Wonder"
    assert card(deck, "The Mudslinger").text == "Subtract your Affiliation from everyone's Electability"
    assert deck.ruleset == "article_ii"


def test_article_ii_cards_keep_quotation_as_flavour_and_effects_as_text(blog):
    tack_center = card(blog["Article II, updated"], "Tack Center")
    assert tack_center.copies == 4
    assert tack_center.type == THING
    assert tack_center.flavor == '"I believe that you misheard me. I meant to say that I am against taxes."'
    assert tack_center.text == "+4 Electability\n-3 Affiliation"
    assert card(blog["Article II, updated"], "Unaffiliated Activity").copies == 1
    assert (
        card(blog["Article II, updated"], "Newspaper Endorsement").flavor
        == '"Dude, this guy rocks" - High Times'
    )


def test_the_older_article_ii_is_a_deck_of_its_own(blog):
    deck = blog["Article II"]
    assert len(deck.cards) == 15
    assert deck.card_count == 56
    assert card(deck, "Voter ADHD").copies == 8
    assert not [card for card in deck.cards if card.type == "Style"]
    assert deck.players == "2-4"
    assert [rule.title for rule in deck.special_rules] == [
        "",
        "Play order",
        "Affiliation and Electability",
        "Phases",
        "Variation",
    ]


def test_article_ii_special_rules_come_through_whole(blog):
    deck = blog["Article II, updated"]
    opening = deck.special_rules[0].text
    assert opening.startswith("This game happens in two phases--Primary Election and General Election.")
    assert opening.endswith("the two players automatically become the Candidates.")
    styles = rule(deck, "Candidate Styles").text
    assert styles.startswith("Some cards apply a Style to a candidate.")
    assert styles.endswith(
        "If a Style changes one of your attributes to zero, then no other modifiers apply."
    )
    phases = rule(deck, "Phases").text.split("\n\n")
    assert len(phases) == 2
    assert phases[1].endswith(
        "the Spoiler with the highest Electability (ignoring Affiliation) becomes President."
    )


def test_socialism_users_and_actions(blog):
    deck = blog["Socialism"]
    users = [card for card in deck.cards if card.type == "User"]
    actions = [card for card in deck.cards if card.type == ACTION]
    assert (len(users), sum(card.copies for card in users)) == (17, 20)
    assert (len(actions), sum(card.copies for card in actions)) == (12, 20)
    assert deck.card_count == 40
    john_smith = card(deck, "John Smith")
    assert (john_smith.copies, john_smith.text) == (4, "")
    assert card(deck, "Alan Sudo/Gerald Sock").text.startswith(
        "Alan/Gerald maintains two separate identities."
    )
    assert card(deck, "Stellar Status").copies == 4
    assert deck.players == "2-5"
    assert deck.ruleset == "socialism"


def test_only_the_out_of_turn_action_is_marked_out_of_turn(blog):
    marked = [card.title for deck in blog.values() for card in deck.cards if card.out_of_turn]
    assert marked == ["Sherman Act"]


def test_socialism_rules_keep_their_headings_and_steps(blog):
    deck = blog["Socialism"]
    assert [rule.title for rule in deck.special_rules] == [
        "",
        "You'll need",
        "To play",
        "Drawing Cards",
        "Playing Cards",
        "Inviting Members",
        "Winning",
    ]
    to_play = rule(deck, "To play").text
    assert to_play.startswith("Determine the first player randomly, have everyone draw a three-card hand")
    assert to_play.endswith("3. Invite members to join their network (this step is optional)")
    assert rule(deck, "Winning").text.endswith("and thus completed their social network.")


def test_virtues_of_the_drake_has_rules_and_its_later_update_but_no_cards_yet(blog):
    deck = blog["The Virtues of the Drake"]
    assert deck.cards == ()
    assert deck.ruleset == "virtues_of_the_drake"
    assert deck.description.startswith("Revised rules for the first game I posted.")
    rules = deck.special_rules[0].text
    assert rules.startswith("This is a card game for two to four players.")
    assert "Wrath will win if the Dragon's Lair ever contains seven Knights" in rules
    assert rules.endswith("and may even tribute you in a card when I expand the decks a bit.")
    update = rule(deck, "Updated Rules").text
    assert update.startswith("The play order is strictly: Pride, Greed, Wrath, Gluttony")
    assert update.endswith("Discard the Sangria All to shuffle all discards back into their decks.")


# --- wiki pages ---------------------------------------------------------------------------------------


def test_rock_paper_scissors_extreme_page(source):
    [deck] = import_seed("rock-paper-scissors-extreme.txt", source)
    assert deck.title == "Rock Paper Scissors Extreme deck"
    assert (deck.designers, deck.date, deck.players) == (("Tweed Cap",), "5 December 2008", "2")
    assert deck.locked is True
    assert deck.status == ""  # "This deck has not been categorised."
    assert deck.ruleset == "rock_paper_scissors_extreme"
    assert len(deck.cards) == deck.card_count == 30
    assert {card.type for card in deck.cards} == {THING}
    assert (
        card(deck, "Metallic Red Potion").text
        == "Drink after you win with Scissors to make your opponent lose 1 point."
    )
    assert (
        card(deck, "Diamond Totem").text == "If you and your opponent both throw Rock, it is a win for you."
    )


def test_rock_paper_scissors_extreme_special_rules_and_notes_come_through_whole(source):
    [deck] = import_seed("rock-paper-scissors-extreme.txt", source)
    challenge, notes = deck.special_rules
    assert challenge.title == ""
    assert challenge.text.startswith("Shuffle the cards and place three face up in the center.")
    assert "\n\n3. The winner either takes an item from the center" in challenge.text
    assert challenge.text.endswith(
        "If at any moment the supply is empty, reshuffle the discard pile into a new supply."
    )
    assert notes.title == "Notes"
    assert notes.text.startswith("If both players throw the same sign and both try to claim a win")
    assert notes.text.endswith("A red potion cannot decrease anyone's score below zero.")


def test_serm_soldiers_have_corner_values_and_stats(source):
    [deck] = import_seed("serm-wargame.txt", source)
    assert deck.title == "Simplistic Wargame with four stats S.E.R.M."
    assert deck.ruleset == "serm"
    assert (deck.designers, deck.date, deck.players, deck.locked) == (("Coprolite Golem",), "2011", "2", True)
    assert deck.description == 'Simple skirmish rules for a handfull of cards - aka "soldiers" per player.'
    assert [card.title for card in deck.cards] == [
        "Ranger",
        "Gunner",
        "Armored",
        "Assault",
        "Guardsman",
        "Brawler",
        "Dreadnaught",
        "Rocket Launcher",
    ]
    assert deck.card_count == 8
    assert {card.type for card in deck.cards} == {"Soldier"}
    assert [card.corner_value for card in deck.cards] == ["2", "3", "3", "2", "1", "3", "8", "3"]
    assert card(deck, "Ranger").stats == {"Shoot": 1, "Endure": 1, "React": 2, "Move": 1}
    assert card(deck, "Brawler").stats == {"Shoot": 0, "Endure": 0, "React": 2, "Move": 3}
    assert card(deck, "Assault").text == ""
    assert card(deck, "Armored").text == "Cannot be killed by a Move."
    assert card(deck, "Rocket Launcher").text.endswith("all partially covered must roll to Endure.")


def test_serm_special_rules_sections(source):
    [deck] = import_seed("serm-wargame.txt", source)
    assert [rule.title for rule in deck.special_rules] == ["", "Shoot", "Endure", "React", "Move"]
    assert deck.special_rules[0].text.startswith("Each soldier has 4 stats: Shoot, Endure, React, Move.")
    assert deck.special_rules[0].text.endswith("re-roll the dice adding all results towards a total score.")
    assert rule(deck, "Move").text.endswith(
        "Note: If a soldier would move out of bounds, halt them at the edge instead."
    )


def test_filibuster_is_a_locked_ccg_set_whose_page_text_is_its_rules(source):
    [deck] = import_seed("filibuster-ccg-set.txt", source)
    assert (deck.kind, deck.status, deck.locked) == (CARD_SET, "CCG set", True)
    assert (deck.designers, deck.date, deck.players) == (("Drock",), "June 1, 2012", "2+")
    assert deck.ruleset == "filibuster"
    assert deck.cards == ()
    first, *_, last = deck.special_rules
    assert first.text.startswith("The first player to get 200 points wins.")
    assert first.text.endswith("his or her point total would simply stay at 0.")
    assert rule(deck, "Card Values").text.startswith("At the top right-hand corner of every card is a box")
    assert any(
        rule.text.startswith("There are 3 types of card in Filibuster:") for rule in deck.special_rules
    )
    assert last.text.startswith("At the beginning of any step during a campaign except the roll step")
    assert last.text.endswith("Both of you must discard the cards you used to filibuster with.")


def test_every_seed_deck_gets_a_distinct_lowercase_hyphen_slug(source):
    decks = [deck for name in DECK_LISTINGS for deck in import_seed(name, source)]
    slugs = [deck.slug for deck in decks]
    assert len(decks) == 7
    assert len(set(slugs)) == len(slugs)
    assert "simplistic-wargame-with-four-stats-s-e-r-m" in slugs
    assert slugify("Ça Marche: S.E.R.M. 40 Million!") == "ca-marche-s-e-r-m-40-million"


# --- the excerpts stand for the originals -------------------------------------------------------------


@requires_seeds
def test_every_original_deck_listing_has_an_excerpt():
    originals = sorted(path.name for path in seeds_dir().glob("*.txt") if path.name != RULEBOOK)
    assert originals == DECK_LISTINGS


def outline(deck: DeckData) -> tuple:
    """All of a deck but the wording of its description and rules, which an excerpt shortens."""
    return (deck.slug, deck.title, deck.kind, deck.designers, deck.date, deck.players, deck.status, deck.locked,
            deck.ruleset, deck.cards, [rule.title for rule in deck.special_rules])


@requires_seeds
@pytest.mark.parametrize("name", DECK_LISTINGS)
def test_each_excerpt_keeps_every_game_card_and_rule_heading_of_its_original(name):
    excerpt, original = (import_seed(name, source) for source in ("excerpt", "original"))
    assert [outline(deck) for deck in excerpt] == [outline(deck) for deck in original]


# --- the wiki's {{card}} markup -----------------------------------------------------------------------

KITCHEN_MARKUP = """{{Infobox
| title = Kitchen Sink
| designer = Ann
| designer2 = Bo
| date = 2007
| players = 3+
| status = Playable
}}
A deck about [[Cooking|cooks]].
== Special Rules ==
Hand size is '''four'''.

=== Gold ===
Each player has Gold.
== Card List ==
{{card|title=Pan|bgcolor=006|type=Thing|text=Worth 2 Gold.<br>Cannot be stolen.|cornervalue=2|creator=Ann}}
{{card
|title=Ladle Strike
|type=Action
|text=Play at any time: destroy a [[Thing]].
|flavortext=Clang!
|copies=2
}}
"""


def test_card_markup_imports_header_rules_and_cards():
    [deck] = import_text(KITCHEN_MARKUP, "wiki")
    assert (deck.title, deck.slug, deck.designers) == ("Kitchen Sink", "kitchen-sink", ("Ann", "Bo"))
    assert (deck.date, deck.players, deck.status, deck.locked) == ("2007", "3+", "playable", True)
    assert deck.description == "A deck about cooks."
    assert [(rule.title, rule.text) for rule in deck.special_rules] == [
        ("", "Hand size is four."),
        ("Gold", "Each player has Gold."),
    ]
    pan, ladle = deck.cards
    assert (pan.type, pan.text, pan.corner_value, pan.creator) == (
        "Thing",
        "Worth 2 Gold.\nCannot be stolen.",
        "2",
        "Ann",
    )
    assert (ladle.type, ladle.flavor, ladle.copies, ladle.out_of_turn) == (ACTION, "Clang!", 2, True)
    assert ladle.text == "Play at any time: destroy a Thing."


def test_unlocked_infobox_makes_an_open_deck():
    [deck] = import_text(
        "{{Infobox|title=Open Deck|unlocked=true|status=CCG set}}\n{{card|title=A|text=B}}", "wiki"
    )
    assert (deck.locked, deck.kind, deck.cards[0].type) == (False, CARD_SET, THING)


def test_card_markup_errors_name_the_line():
    with pytest.raises(ListingError) as missing_title:
        import_text("{{Infobox|title=X}}\n\n{{card|type=Thing|text=No title}}", "wiki")
    assert missing_title.value.line == 3
    with pytest.raises(ListingError) as unclosed:
        import_text(
            "{{Infobox|title=X}}\n{{card|title=Ok|text=Fine}}\n{{card|title=Broken\n|text=never closed",
            "wiki",
        )
    assert unclosed.value.line == 3
    assert str(unclosed.value).startswith("Line 3: ")


# --- MUSHcode -----------------------------------------------------------------------------------------

MUSHCODE = """@@ a test deck
loadcard Thrown Away/T/Gone after cleardeck.
cleardeck
loadcard Armageddon/A/Destroy all Things.
loadcard Flak Armour/T/Play onto a Thing.%rThat Thing gets +2 to defence rolls.
loadcard Flak Armour/T/Play onto a Thing.%rThat Thing gets +2 to defence rolls.
newcard A/S/L?/A/Select a user.%r("asl?")
newcard Jelly-Baby/A/You may play this card at any time to stop an Action; 100%% safe.
"""


def test_mushcode_reads_loadcard_and_newcard_lines():
    [deck] = import_text(MUSHCODE, "mushcode")
    assert [(card.title, card.type, card.copies) for card in deck.cards] == [
        ("Armageddon", ACTION, 1),
        ("Flak Armour", THING, 2),
        ("A/S/L?", ACTION, 1),
        ("Jelly-Baby", ACTION, 1),
    ]
    flak, asl, jelly = deck.cards[1:]
    assert flak.text == "Play onto a Thing.\nThat Thing gets +2 to defence rolls."
    assert (asl.text, asl.flavor) == ("Select a user.", '"asl?"')
    assert jelly.text.endswith("100% safe.")
    assert jelly.out_of_turn is True


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("cleardeck\nloadcard Fine/T/ok\nloadcard Broken/X/what type?\n", 3),
        ("cleardeck\n\nsay hello\n", 3),
        ("loadcard No Type At All\n", 1),
    ],
)
def test_bad_mushcode_names_the_line(text, line):
    with pytest.raises(ListingError) as error:
        import_text(text, "mushcode")
    assert error.value.line == line


# --- malformed listings -------------------------------------------------------------------------------

PAGE_HEADER = """Broken deck

From Dvorak - A Blank-Card Game
Broken deck
Designer Someone
Date 2020
Players 2
"""


@pytest.mark.parametrize(
    ("listing", "line", "words"),
    [
        (PAGE_HEADER + "Card List\nLonely\nHas text\nNo Text Card\n", 11, "has no text"),
        (PAGE_HEADER + "Card List\n1\nZero Copies (x0)\nThing\nNothing.\n", 10, "at least one"),
        (PAGE_HEADER + "Card List\n\n", 8, "no cards"),
        (PAGE_HEADER + "Card List\nsome words first\n3\nRanger\nSoldier\nShoot1\n", 9, "Expected a card"),
        ("This opening line is a whole sentence, not a title.\nMore.\n", 1, "title"),
        ("My Game\n\nCards:\n\nFine Card\nIt works.\n\nTitle Without Text.\n", 8, "has no text"),
        ("My Game\n\nRules:\n\nHeading Without Rules\n", 3, "has no rules"),
        ("   \n\n", 1, "empty"),
    ],
)
def test_bad_listings_name_the_line(listing, line, words):
    with pytest.raises(ListingError) as error:
        import_text(listing, "wiki")
    assert error.value.line == line
    assert words in error.value.message


def test_a_bad_game_late_in_a_listing_imports_nothing(source):
    text = listing_text("article-ii-socialism-virtues-of-the-drake.txt", source)
    broken = (
        text + "\n\nOne More Game\n\n2 players\n\nCards\n\nGood Card (x2)\nFine.\n\nBad Card (x0)\nBroken.\n"
    )
    with pytest.raises(ListingError) as error:
        import_text(broken, "wiki")
    assert error.value.line == len(broken.splitlines()) - 1


def test_json_errors_name_the_line():
    with pytest.raises(ListingError) as error:
        import_text('{\n  "title": "X",\n  "cards": [\n}', "json")
    assert error.value.line == 4


def test_unknown_format_is_refused():
    with pytest.raises(UnknownFormatError):
        import_text("cleardeck", "thoth")


def test_a_blog_game_whose_rules_begin_with_players_is_not_taken_for_a_wiki_page():
    listing = "Tiny Game\n\nPlayers take turns drawing.\n\nCards:\n\nPebble (x3)\nDo nothing.\n"
    [deck] = import_text(listing, "wiki")
    assert deck.title == "Tiny Game"
    assert deck.special_rules[0].text == "Players take turns drawing."
    assert (deck.cards[0].title, deck.card_count) == ("Pebble", 3)


# --- telling markup from page text by structure -------------------------------------------------------

QUOTING_REVISION = (
    "Revision as of 22:55, 5 December 2008 by Tweed Cap (talk | contribs) "
    "({{Infobox deck|title=Rock Paper Scissors Extreme deck|designer=Tweed Cap|players=2}})"
)


def page_quoting_its_infobox() -> str:
    text = listing_text("rock-paper-scissors-extreme.txt")
    [revision] = [line for line in text.splitlines() if line.startswith("Revision as of ")]
    return text.replace(revision, QUOTING_REVISION)


def test_a_page_whose_revision_line_quotes_its_infobox_imports_as_page_text_with_its_cards():
    [deck] = import_text(page_quoting_its_infobox(), "wiki")
    [original] = import_text(listing_text("rock-paper-scissors-extreme.txt"), "wiki")
    assert deck.title == "Rock Paper Scissors Extreme deck"
    assert len(deck.cards) == deck.card_count == 30
    assert deck == original
    assert "{{" not in deck.description


def test_markup_with_a_card_list_but_no_card_names_the_heading():
    with pytest.raises(ListingError) as error:
        import_text("{{Infobox|title=X}}\n== Special Rules ==\nOne.\n\n== Card List ==\nPebble: do nothing.\n", "wiki")
    assert error.value.line == 5
    assert "no {{card}}" in error.value.message


@pytest.mark.parametrize(("format", "text", "line"), [
    ("wiki", PAGE_HEADER + "Card List\nPebble (x2)\nDo\x00 nothing.\n", 10),
    ("wiki", "{{Infobox|title=X}}\n{{card|title=A\x00|text=B}}\n", 2),
    ("mushcode", "cleardeck\nloadcard A/T/\x00\n", 2),
    ("json", '{"title": "X",\n"cards": []}\x00', 2),
    ("json", '{"title": "X",\n"cards": [{"title": "A\\u0000", "text": "B"}]}', 2),
    ("json", '{"title": "X",\n"cards": [],\n"stats": {"\\u0000": 1}}', 3),
])
def test_a_null_character_is_refused_naming_its_line(format, text, line):
    with pytest.raises(ListingError) as error:
        import_text(text, format)
    assert error.value.line == line
    assert "null character" in error.value.message


def test_an_escaped_backslash_before_u0000_in_json_is_only_text():
    [deck] = import_text('{"title": "X", "description": "C:\\\\u0000"}', "json")
    assert deck.description == "C:\\u0000"
