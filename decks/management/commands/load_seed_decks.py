"""`manage.py load_seed_decks`: load the project's own seed decks (decks/seed_data/*.json) once, and its sample
sets (decks/sample_data/*.json): small decks the project wrote itself, titled as samples, for trying the games whose
seed entries lack their cards."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand

from decks import services

SEED_DATA = Path(__file__).resolve().parents[2] / "seed_data"
SAMPLE_DATA = SEED_DATA.parent / "sample_data"


class Command(BaseCommand):
    help = "Load the seed decks that ship with the project; decks already in the archive are left alone."

    def handle(self, *args, **options) -> None:
        loaded: list[str] = []
        files = [*sorted(SEED_DATA.glob("*.json")), *sorted(SAMPLE_DATA.glob("*.json"))]
        for path in files:
            decks = services.deck_import(
                author=None, text=path.read_text(encoding="utf-8"), format="json", skip_existing=True
            )
            loaded += [deck.slug for deck in decks]
        self.stdout.write(
            f"Loaded {len(loaded)} seed and sample deck(s): {', '.join(loaded) or 'none'}; "
            f"{len(files) - len(loaded)} already present."
        )
