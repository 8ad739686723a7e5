"""``manage.py import_events FILE``: an export into a store that holds none of its streams, the games' rows
rebuilt from them; all or nothing (README, "Backups")."""

import sys

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from dvorak_kit.eventstore.tools import BadExport, imported, parsed
from games import projections


class Command(BaseCommand):
    help = ("Import an export of export_events (- for standard input) into a store holding none of its streams, "
            "then rebuild each game's rows. One transaction: a refusal or a failure writes nothing. On PostgreSQL "
            "run it as the tables' owner (it moves the event id sequence past the imported ids).")

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        source = sys.stdin.buffer if file == "-" else open(file, "rb")  # noqa: SIM115
        with source:
            try:
                events = parsed(source)
            except BadExport as exc:
                raise CommandError(f"{file}: {exc}") from exc
        try:
            with transaction.atomic():
                versions = imported(events)
                games = [stream for stream in sorted(versions) if projections.is_game_stream(stream)]
                players: dict[int, str] = {}
                for stream in games:
                    players.update(projections.players_of(projections.replayed(stream)[0]))
                made = projections.accounts_provided(players)
                for stream in games:
                    projections.rebuild(stream)
        except (BadExport, ValueError) as exc:
            raise CommandError(f"{file}: nothing imported: {exc}") from exc
        self.stdout.write(f"{len(events)} events in {len(versions)} streams imported; {len(games)} games rebuilt")
        if made:
            self.stdout.write(f"{len(made)} accounts made without a usable password (set one to sign in): "
                              + ", ".join(made))
