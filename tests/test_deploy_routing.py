"""Production's routing, read from the files compose and nginx run: each route reaches a server that serves it.

The game commands go to the ASGI servers, where games/api/fast.py answers them (tests/api/test_fast_commands.py);
the websockets and the HTTP streams too; everything else to the WSGI servers. No nginx runs here, so the template is read, not served.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
yaml = pytest.importorskip("yaml")


def nginx_locations() -> dict[str, str]:
    """Each location of the template, by its match, to the upstream it proxies to."""
    text = (ROOT / "deploy/nginx/default.conf.template").read_text()
    return dict(re.findall(r"location\s+([^{]+?)\s*\{[^}]*?proxy_pass\s+http://(\w+);", text))


def nginx_upstreams() -> dict[str, str]:
    text = (ROOT / "deploy/nginx/default.conf.template").read_text()
    return dict(re.findall(r"upstream\s+(\w+)\s*\{\s*server\s+\$\{(\w+)\};", text))


def compose_app_of(upstream_variable: str) -> str:
    """The application module the compose service behind nginx's ``upstream_variable`` serves."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    host = compose["services"]["nginx"]["environment"][upstream_variable].split(":")[0]
    return compose["services"][host]["command"][-1]


def test_game_commands_and_websockets_reach_the_asgi_app_and_the_rest_the_wsgi_app():
    locations, upstreams = nginx_locations(), nginx_upstreams()
    commands = next(upstream for match, upstream in locations.items() if "commands" in match)
    pattern = next(match for match in locations if "commands" in match).removeprefix("~").strip()
    assert re.fullmatch(pattern, "/api/v1/games/0b0e5f5e-8c57-4a57-9d1c-6f1c2a0e8e11/commands/")
    assert not re.fullmatch(pattern, "/api/v1/games/0b0e5f5e-8c57-4a57-9d1c-6f1c2a0e8e11/moves/")
    assert compose_app_of(upstreams[commands]) == "dvorak_site.asgi:application"
    assert compose_app_of(upstreams[locations["/ws/"]]) == "dvorak_site.asgi:application"
    assert compose_app_of(upstreams[locations["/"]]) == "dvorak_site.wsgi:application"


def test_the_streams_reach_the_asgi_app_unbuffered():
    text = (ROOT / "deploy/nginx/default.conf.template").read_text()
    match, upstream = next((match, upstream) for match, upstream in nginx_locations().items() if "stream" in match)
    pattern = match.removeprefix("~").strip()
    for path in ("/api/v1/games/0b0e5f5e-8c57-4a57-9d1c-6f1c2a0e8e11/stream/", "/api/v1/account/stream/"):
        assert re.fullmatch(pattern, path)
    assert not re.fullmatch(pattern, "/api/v1/games/0b0e5f5e-8c57-4a57-9d1c-6f1c2a0e8e11/events/")
    assert compose_app_of(nginx_upstreams()[upstream]) == "dvorak_site.asgi:application"
    block = text.split(f"location {match}", 1)[1].split("}", 1)[0]
    assert "proxy_buffering off;" in block


def test_the_urls_that_may_carry_a_credential_are_logged_without_their_query_string():
    """``/ws/…?ticket=`` and ``/api/v1/…/stream/?ticket=``: nginx's line for them has the path, not the query."""
    text = (ROOT / "deploy/nginx/default.conf.template").read_text()
    formats = dict(re.findall(r"log_format\s+(\w+)\s+((?:'[^']*'\s*)+);", text))
    assert "no_query" in formats
    line = formats["no_query"]
    assert "$uri" in line and not re.search(r"\$(request\b|request_uri|args|query_string|arg_)", line)
    for match in nginx_locations():
        if match == "/ws/" or "stream" in match:
            block = text.split(f"location {match}", 1)[1].split("}", 1)[0]
            assert re.search(r"access_log\s+\S+\s+no_query;", block), match
