"""The bodies of S.E.R.M.'s commands, declared once: the engine checks each body by its declaration before the
handler runs, and the API's schema and first check are made from the same declarations (``docs/api.md``, "The
``serm`` ruleset"). What depends on the table stays the handler's: whether a soldier is yours and on the field, a
card of the deck, a square of the Move's path; and which fields a soldier's card or the game's options call for
(the Brawler sends no ``direction``, the Rocket Launcher an ``at`` and no ``target``, ``stop`` only with
``react_stop: reactor_chooses``, the default of new games)."""

from __future__ import annotations

from dataclasses import replace

from dvorak_engine.bodies import Body, Field, any_field, choice_field, text_field
from dvorak_engine.rulesets.serm.geometry import COMPASS, parse_cell

# How a field naming a soldier, or a square, is refused when it is not one ({name} is the field).
SOLDIER_ID = "\"{name}\" names a soldier by its id."
SQUARE = "\"{name}\" names a square as \"x,y\"."
CARD_TITLE = "\"{name}\" names a soldier card of the deck by its title."
COMPASS_HELP = "One of the eight compass directions; north is towards seat 1's edge."


def soldier(help: str, *, required: bool = True) -> Field:
    """A soldier's id (a non-empty string, as the state's ``soldiers`` show it): ``null`` counts as left out where
    it is not ``required``."""
    return text_field(help, required=required, null=not required, refusal=SOLDIER_ID)


def direction(help: str, *, required: bool = True) -> Field:
    """One of the eight compass directions: ``null`` counts as left out where it is not ``required``."""
    return replace(choice_field(COMPASS, help, required=required), null=not required)


def square(name: str, help: str, *, required: bool = True) -> Field:
    """A square of the field as ``"x,y"`` (``geometry.parse_cell`` reads it): ``null`` counts as left out where it
    is not ``required``."""

    def is_a_square(value: str) -> None:
        if parse_cell(value) is None:
            raise ValueError(SQUARE.replace("{name}", name))

    return text_field(help, required=required, null=not required, refusal=SQUARE, check=is_a_square)


RECRUIT = Body(
    "With the option `budget`, before the battle: add a soldier card to your force, paying its corner value from "
    "the budget (any card, as often as the budget pays for it).",
    {"card": text_field("The title of a soldier card of the deck.", refusal=CARD_TITLE)},
    ({"card": "Guardsman"},))
READY = Body("Your force is built (at least one soldier); once both are, the soldiers are deployed and the battle "
             "starts.")
TURN = Body(
    "Turn a soldier in place to face another way: \"Turning counts as the start and end of a Move\", so this is "
    "the soldier's Move, and the enemy may React to it when one of its soldiers sees the turning soldier (unless "
    "the option `react_turn` is `never`): the server rolls its Move dice then, for the React to beat.",
    {"soldier": soldier("One of your soldiers on the field (the one this initiative activated, once there is one)."),
     "facing": direction("The way it turns to face (not the way it faces now). " + COMPASS_HELP)},
    ({"soldier": "0-guardsman", "facing": "NE"},))
ADVANCE = Body(
    "A soldier's Move: declare the direction, and the server rolls its Move dice; it moves exactly that many card "
    "lengths, halted before a soldier (an enemy a Move can kill is killed), terrain or the edge, and the enemy may "
    "React. The Brawler declares no direction: it steers its Move with `step`.",
    {"soldier": soldier("One of your soldiers on the field (the one this initiative activated, once there is one)."),
     "direction": direction("The direction it travels: required, except for the Brawler, which sends none. "
                            + COMPASS_HELP, required=False),
     "facing": direction("The way it faces at the end of its Move; the way it went when left out. " + COMPASS_HELP,
                         required=False)},
    ({"soldier": "1-rocket-launcher", "direction": "N", "facing": "E"}, {"soldier": "0-brawler"}))
STEP = Body("One card length of a Brawler's Move (\"can turn during a Move\"), in any direction, while `phase` is "
            "`steer`.",
            {"direction": direction("The direction of this card length. " + COMPASS_HELP)}, ({"direction": "E"},))
SHOOT = Body(
    "A soldier's Shoot: the server rolls its Shoot dice against the target's Endure, and a higher Shoot total "
    "eliminates it. The Gunner and the Dreadnaught name no target (they fire at each enemy in sight); the Rocket "
    "Launcher names a square in sight (`at`), its blast covering two card lengths around it.",
    {"soldier": soldier("One of your soldiers on the field (the one this initiative activated, once there is one)."),
     "target": soldier("An enemy soldier in the shooter's line of sight: required, except for the Gunner, the "
                       "Dreadnaught and the Rocket Launcher, which send none.", required=False),
     "at": any_field("The Rocket Launcher: the square it aims at, as \"x,y\", in its line of sight (required for it; "
                     "another shooter's is not read).", required=False)},
    ({"soldier": "0-assault", "target": "1-rocket-launcher"}, {"soldier": "0-gunner"},
     {"soldier": "1-rocket-launcher", "at": "4,6"}))
REACT = Body(
    "When asked (`phase` `react`): one of the soldiers offered tries to stop the Move, rolling its React dice "
    "against the Move's total; a greater total stops the mover and the reacting soldier takes the next initiative.",
    {"soldier": soldier("One of the soldiers the `serm.react_offered` event offered."),
     "stop": square("stop", "With the option `react_stop: \"reactor_chooses\"` only (the default; required then): "
                    "the square of the Move's path where the mover stops, if the React succeeds (\"anywhere along "
                    "its move path\"); the legal moves list the path's squares.", required=False)},
    ({"soldier": "0-gunner"}, {"soldier": "0-gunner", "stop": "2,11"}))
PASS = Body("Decline to React to the Move, which is then made; or, with the initiative, once the activated soldier "
            "has made its Move or its Shoot, forgo the other and end the initiative.")
