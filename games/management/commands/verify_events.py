"""``manage.py verify_events``: is the event store whole? (README, "Backups")."""

import sys

from django.core.management.base import BaseCommand, CommandError

from dvorak_kit.eventstore.tools import (
    BadExport,
    by_stream,
    decode_problems,
    gap_problems,
    parsed,
    stored_problems,
)
from games import projections


class Command(BaseCommand):
    help = ("Check every stream: versions 1, 2, … n with no gap, every event decodes, every game replays through "
            "the engine and its rows match the stream. With --input, check an export file instead (versions and "
            "decoding). One line per problem; exit status 1 if there is any.")

    def add_arguments(self, parser):
        parser.add_argument("--stream", help="only this stream")
        parser.add_argument("--input", help="an export of export_events to check instead of the database")

    def handle(self, *args, stream=None, input=None, **options):  # noqa: A002 - the option's name
        found: list[str] = []
        checked = 0
        if input is not None:
            source = sys.stdin.buffer if input == "-" else open(input, "rb")  # noqa: SIM115
            with source:
                try:
                    streams = by_stream(parsed(source))
                except BadExport as exc:
                    raise CommandError(f"{input}: {exc}") from exc
            for stream_id, events in sorted(streams.items()):
                if stream is not None and stream_id != stream:
                    continue
                checked += 1
                found += gap_problems(stream_id, [event.version for event in events])
                found += decode_problems(stream_id, ((e.version, e.type, e.schema, e.data) for e in events))
        else:
            for stream_id, problems in stored_problems(stream):
                checked += 1
                found += problems
                if not problems and projections.is_game_stream(stream_id):
                    found += projections.problems(stream_id)
        for problem in found:
            self.stderr.write(problem)
        if found:
            raise CommandError(f"{len(found)} problems in {checked} streams")
        self.stdout.write(f"{checked} streams verified: no problem")
