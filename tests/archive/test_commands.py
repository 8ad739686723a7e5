"""Management commands: import_decks, load_seed_decks (idempotent) and build_seed_data.

The listings are the excerpts under tests/fixtures; the committed seed data is compared with what
build_seed_data makes from the original listings where they are present."""

from __future__ import annotations

import json
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from decks.importers import import_text
from decks.management.commands import load_seed_decks
from decks.models import Deck, Revision
from tests.seeds import DECK_LISTINGS, EXCERPTS, RULEBOOK, SEED_DATA, listing_text, requires_seeds, seeds_dir

pytestmark = pytest.mark.django_db


def listed_decks() -> dict:
    return {deck.slug: deck for name in DECK_LISTINGS for deck in import_text(listing_text(name), "wiki")}


def expected_slugs() -> set[str]:
    """The seed decks, and the project's own sample sets beside them."""
    samples = Path(load_seed_decks.__file__).resolve().parents[2] / "sample_data"
    return set(listed_decks()) | {json.loads(path.read_text(encoding="utf-8"))["slug"]
                                   for path in samples.glob("*.json")}


@pytest.fixture
def listings_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "listings"
    folder.mkdir()
    for name in DECK_LISTINGS:
        shutil.copy(EXCERPTS / name, folder / name)
    return folder


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_import_decks_reads_a_folder_once_however_often_it_runs(listings_folder):
    run("import_decks", str(listings_folder))
    revisions = Revision.objects.count()

    second = run("import_decks", str(listings_folder))

    assert set(Deck.objects.values_list("slug", flat=True)) == set(listed_decks())
    assert Revision.objects.count() == revisions
    assert "Imported 0 deck(s)" in second


def test_import_decks_reads_files_in_their_format_and_credits_the_user(tmp_path, make_user):
    importer = make_user("archivist")
    mush = tmp_path / "kitchen.mush"
    mush.write_text("cleardeck\nloadcard Frying Pan/T/Shoot 1\nloadcard Frying Pan/T/Shoot 1\n", encoding="utf-8")

    run("import_decks", str(mush), str(EXCERPTS / "serm-wargame.txt"), "--user", "archivist")

    assert Deck.objects.count() == 2
    assert {r.author for r in Revision.objects.all()} == {importer}
    assert Deck.objects.get(slug="simplistic-wargame-with-four-stats-s-e-r-m").cards.count() == 8


def test_import_decks_reports_a_bad_file_by_line_and_keeps_none_of_it(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "title": "X",\n  "cards": [\n}', encoding="utf-8")
    err = StringIO()

    with pytest.raises(CommandError):
        call_command("import_decks", str(bad), stdout=StringIO(), stderr=err)

    assert "Line 4" in err.getvalue()
    assert not Deck.objects.exists()


def test_import_decks_refuses_a_missing_path(tmp_path):
    with pytest.raises(CommandError):
        run("import_decks", str(tmp_path / "nowhere.txt"))


def test_load_seed_decks_loads_the_committed_seed_data_once():
    run("load_seed_decks")
    revisions = Revision.objects.count()
    second = run("load_seed_decks")

    assert set(Deck.objects.values_list("slug", flat=True)) == expected_slugs()
    assert Revision.objects.count() == revisions
    assert "Loaded 0 seed and sample deck(s)" in second
    # The wiki's own locks come along: the system loads them, not a player.
    assert Deck.objects.get(slug="filibuster-ccg-set").locked is True
    assert Deck.objects.get(slug="filibuster-ccg-set").kind == "card_set"


def test_build_seed_data_writes_each_deck_of_the_listings_as_json_but_not_the_rulebook(listings_folder, tmp_path):
    (listings_folder / RULEBOOK).write_text("The Rules of Dvorak\n\nOnly the rules, no deck.\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "stale-deck.json").write_text("{}", encoding="utf-8")

    run("build_seed_data", str(listings_folder), "--out", str(out))

    decks = listed_decks()
    assert sorted(path.name for path in out.glob("*.json")) == sorted(f"{slug}.json" for slug in decks)
    for path in out.glob("*.json"):
        assert import_text(path.read_text(encoding="utf-8"), "json") == [decks[path.stem]]


@requires_seeds
def test_the_committed_seed_data_is_what_build_seed_data_makes_from_the_listings(tmp_path):
    run("build_seed_data", str(seeds_dir()), "--out", str(tmp_path))

    built = {path.name: path.read_text(encoding="utf-8") for path in tmp_path.glob("*.json")}
    committed = {path.name: path.read_text(encoding="utf-8") for path in SEED_DATA.glob("*.json")}
    assert built == committed
    assert len(built) == len(listed_decks())
