"""``manage.py export_events [--stream ID] --output FILE``: every event as stored, NDJSON (README, "Backups")."""

import sys

from django.core.management.base import BaseCommand

from dvorak_kit.eventstore.tools import exported_lines


class Command(BaseCommand):
    help = "Write every event (or one stream's) as NDJSON, one event a line as stored, in stream and version order."

    def add_arguments(self, parser):
        parser.add_argument("--output", required=True, help="the file to write; - for standard output")
        parser.add_argument("--stream", help="only this stream (a game's is game-<id>)")

    def handle(self, *args, output, stream=None, **options):
        target = sys.stdout.buffer if output == "-" else open(output, "wb")  # noqa: SIM115
        count = 0
        try:
            for line in exported_lines(stream):
                target.write(line)
                count += 1
        finally:
            if target is not sys.stdout.buffer:
                target.close()
            else:
                target.flush()
        if output != "-":
            self.stdout.write(f"{count} events written to {output}")
