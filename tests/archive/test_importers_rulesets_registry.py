"""The importer and the play pages ask the engine's registry about rulesets: each names the phrases of a deck's
title that are its own and the title of its board, so that adding a game edits nothing outside its package."""

from dvorak_engine.rulesets import REGISTERED, board_titles, get_ruleset, ruleset_for_title


def test_a_deck_title_names_the_ruleset_whose_phrase_it_holds():
    assert ruleset_for_title("Article II (updated)") == "article_ii"
    assert ruleset_for_title("Simplistic Wargame with Four Stats (S.E.R.M.)") == "serm"
    assert ruleset_for_title("The Virtues of the Drake") == "virtues_of_the_drake"
    assert ruleset_for_title("Rock Paper Scissors Extreme deck") == "rock_paper_scissors_extreme"
    assert ruleset_for_title("Filibuster CCG set") == "filibuster"
    assert ruleset_for_title("Socialism") == "socialism"
    assert ruleset_for_title("A booster draft of fish") == "draft"
    assert ruleset_for_title("A deck of fish") == "dvorak"


def test_every_ruleset_but_dvorak_names_its_decks_and_every_board_has_a_title():
    assert all(get_ruleset(name).deck_title_phrases for name in REGISTERED if name != "dvorak")
    assert board_titles() == {"rock_paper_scissors_extreme": "The centre and the items", "serm": "The field",
                              "socialism": "The grid", "virtues_of_the_drake": "The Gullet, the Lair and the Bed"}


def test_the_lobby_offers_every_registered_ruleset(client, make_user):
    client.force_login(make_user("ann"))
    page = client.get("/play/").content.decode()
    for name in REGISTERED:
        assert f'<option value="{name}">' in page
