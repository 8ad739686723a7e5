"""`manage.py import_decks PATH…`: import listing files, or every file in folders, into the archive."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from decks import services
from decks.importers import FORMATS
from dvorak_core.errors import DomainError

SUFFIX_FORMATS = {".json": "json", ".mush": "mushcode", ".mushcode": "mushcode"}
IMPORTABLE_SUFFIXES = {".txt", ".wiki", *SUFFIX_FORMATS}


def format_for(path: Path) -> str:
    """The format a file's name suggests; anything else is read as a wiki listing."""
    return SUFFIX_FORMATS.get(path.suffix.lower(), "wiki")


def files_under(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found += sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in IMPORTABLE_SUFFIXES)
        elif path.is_file():
            found.append(path)
        else:
            raise CommandError(f"No such file or folder: {name}")
    return found


class Command(BaseCommand):
    help = (
        "Import decks from listing files or folders (wiki listings, MUSHcode, the archive's JSON); "
        "decks already in the archive are left as they are."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument("--format", choices=FORMATS, help="Read every file in this format.")
        parser.add_argument("--user", help="The username to credit as the importer (default: the system).")

    def handle(self, *args, paths: list[str], format: str | None, user: str | None, **options) -> None:
        author = self.importer(user)
        imported, failed = [], []
        for path in tqdm(files_under(paths), desc="Importing", unit="file", disable=options["verbosity"] == 0):
            try:
                decks = services.deck_import(
                    author=author,
                    text=path.read_text(encoding="utf-8"),
                    format=format or format_for(path),
                    skip_existing=True,
                )
            except DomainError as error:
                failed.append(f"{path}: {error.message}")
            else:
                imported += [deck.slug for deck in decks]
        self.stdout.write(f"Imported {len(imported)} deck(s): {', '.join(imported) or 'none'}.")
        for line in failed:
            self.stderr.write(f"Not imported: {line}")
        if failed:
            raise CommandError(f"{len(failed)} file(s) not imported.")

    @staticmethod
    def importer(username: str | None):
        if username is None:
            return None
        try:
            return get_user_model().objects.get(username=username)
        except get_user_model().DoesNotExist:
            raise CommandError(f"No user {username!r}.") from None
