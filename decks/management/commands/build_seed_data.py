"""`manage.py build_seed_data SEEDS_DIR`: regenerate decks/seed_data/ from the wiki listings in SEEDS_DIR.

Every `*.txt` there except the rulebook is imported with the pure importers and written as the archive's
JSON, one file per deck, so `load_seed_decks` works on machines that do not have the listings.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from decks.exporters import export_deck
from decks.importers import ListingError, import_text

SEED_DATA = Path(__file__).resolve().parents[2] / "seed_data"
# The rules of the game, not a deck.
RULEBOOK = "dvorak-rules-2000-2007.txt"


class Command(BaseCommand):
    help = "Rebuild decks/seed_data/*.json from the wiki listings in SEEDS_DIR."

    def add_arguments(self, parser) -> None:
        parser.add_argument("seeds_dir", metavar="SEEDS_DIR")
        parser.add_argument("--out", default=str(SEED_DATA), help="Where to write the JSON files.")

    def handle(self, *args, seeds_dir: str, out: str, **options) -> None:
        source, target = Path(seeds_dir), Path(out)
        if not source.is_dir():
            raise CommandError(f"No such folder: {source}")
        target.mkdir(parents=True, exist_ok=True)
        for stale in target.glob("*.json"):
            stale.unlink()
        written = []
        for listing in sorted(source.glob("*.txt")):
            if listing.name == RULEBOOK:
                continue
            try:
                decks = import_text(listing.read_text(encoding="utf-8"), "wiki")
            except ListingError as error:
                raise CommandError(f"{listing}: {error}") from error
            for deck in decks:
                content, _, filename = export_deck(deck, "json")
                (target / filename).write_text(content, encoding="utf-8")
                written.append(filename)
        self.stdout.write(f"Wrote {len(written)} seed deck(s) to {target}: {', '.join(written)}.")
