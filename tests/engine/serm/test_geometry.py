"""The measures of the table: sight lines, terrain between two cards, the blast's cover. Exact, so a replay
measures what the game measured."""

from __future__ import annotations

import pytest

from dvorak_engine.rulesets.serm.geometry import Rect, blast_covers, in_cone, parse_cell, sight_blocked


def seen(facing: str, radius: int = 3) -> set[tuple[int, int]]:
    return {(a, b) for a in range(-radius, radius + 1) for b in range(-radius, radius + 1) if in_cone(facing, (a, b))}


def test_facing_a_side_of_the_field_the_sight_lines_leave_the_top_corners_at_45_degrees():
    north = seen("N", 2)
    assert north == {(-1, 1), (0, 1), (1, 1), (-2, 2), (-1, 2), (0, 2), (1, 2), (2, 2)}
    # The other sides are the same cone turned.
    assert seen("E", 2) == {(b, -a) for a, b in north}
    assert seen("S", 2) == {(-a, -b) for a, b in north}
    assert seen("W", 2) == {(-b, a) for a, b in north}


def test_facing_a_corner_the_sight_lines_run_along_the_two_sides_it_faces():
    assert seen("NE", 1) == {(0, 1), (1, 1), (1, 0)}
    assert seen("SW", 1) == {(0, -1), (-1, -1), (-1, 0)}


def test_terrain_blocks_the_line_between_two_centres_only_through_its_inside():
    wall = (Rect(x=4, y=5, width=3, height=1),)
    assert sight_blocked((5, 2), (5, 8), wall)
    assert not sight_blocked((5, 2), (5, 4), wall)
    # Along the wall's edge, or through its corner point, the line passes.
    assert not sight_blocked((3, 2), (3, 8), wall)
    assert not sight_blocked((0, 0), (4, 4), (Rect(x=1, y=2, width=1, height=1),))
    assert sight_blocked((0, 0), (4, 4), (Rect(x=2, y=2, width=1, height=1),))


@pytest.mark.parametrize(("offset", "partly", "centre"), [
    ((2, 0), True, True), ((0, 2), True, True), ((1, 2), True, False), ((2, 2), False, False), ((3, 0), False, False),
    ((1, 1), True, True),
])
def test_the_blast_covers_a_card_partly_or_by_its_centre(offset, partly, centre):
    assert blast_covers((5, 5), (5 + offset[0], 5 + offset[1]), 2, partly=True) is partly
    assert blast_covers((5, 5), (5 + offset[0], 5 + offset[1]), 2, partly=False) is centre


@pytest.mark.parametrize(("name", "cell"), [("3,4", (3, 4)), ("0,11", (0, 11)), ("a,1", None), ("3", None),
                                            (3, None), ("1,2,3", None)])
def test_a_square_is_named_x_comma_y(name, cell):
    assert parse_cell(name) == cell
