"""What a server process does once, after loading the project and before its first request.

``settle()`` imports what Django would otherwise import on the first request (the URL configuration, and with it
every view, serializer and ruleset), then moves every object made so far out of the cyclic garbage collector's
sight (``gc.freeze``, dvorak_kit/collector.py). They live as long as the process anyway, and a full collection
walked all of them: about 100,000 objects and 40 ms of CPU, which on a busy machine stretched to pauses of
150–190 ms in the middle of requests, every one of them waiting (the slowest hundredth of game commands,
bench/README.md). Objects made later, the games' states among them, are collected as before (the live readers'
own are frozen as they accumulate). ``DVORAK_GC_FREEZE=0`` leaves the collector alone.
"""


def settle() -> None:
    from django.urls import get_resolver

    from dvorak_kit import collector

    get_resolver().url_patterns  # noqa: B018  (imports the views, as the first request would)
    from games import background

    background.start()  # the clock's sweep, where it runs in this process (games/background.py)
    collector.freeze_loaded()
