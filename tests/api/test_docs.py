"""docs/api.md is the reference client authors write against: it must name everything the service serves.

Each test collects a list from the code itself (the schema the service serves, the rulesets' command and event
registries, the error codes the code raises, the seed decks' rulesets) and holds the document to it, both ways
where the document makes a claim of its own, so an API change the document does not follow fails here.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
from functools import cache
from pathlib import Path

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework import exceptions

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
API_DOC = DOCS / "api.md"
PREFIX = "/api/v1"
HTTP_METHODS = {"get", "post", "put", "patch", "delete"}
# The schema and its two viewers describe the API; drf-spectacular leaves them out of the schema itself.
SCHEMA_PAGES = {"/schema/", "/docs/", "/redoc/"}
PROJECT_PACKAGES = ("ccg", "community", "decks", "dvorak_core", "dvorak_engine", "dvorak_kit", "dvorak_site", "games", "proposals", "web")


@cache
def doc() -> str:
    return API_DOC.read_text(encoding="utf-8")


def headings(lines: list[str]):
    """(index, level, title) of each Markdown heading, skipping fenced code (where "# " starts a shell comment)."""
    fenced = False
    for index, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"(#+) (.+)$", line)):
            yield index, len(match[1]), match[2]


def section(text: str, title: str, level: int = 2) -> str:
    """The body under the heading ``title`` (of ``level`` hashes) up to the next heading of that level or above."""
    lines = text.splitlines()
    found = list(headings(lines))
    start = next((i for i, lvl, name in found if lvl == level and name == title), None)
    assert start is not None, f"docs/api.md has no heading {'#' * level} {title}"
    end = next((i for i, lvl, _ in found if i > start and lvl <= level), len(lines))
    return "\n".join(lines[start + 1:end])


def table_rows(text: str) -> list[list[str]]:
    """The cells of every Markdown table row in ``text`` (header and separator rows included)."""
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.startswith("|")]


# --- what the code serves ---------------------------------------------------------------------------------------


@cache
def schema_operations() -> set[tuple[str, str]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {(method.upper(), path.removeprefix(PREFIX))
            for path, item in schema["paths"].items() for method in item if method in HTTP_METHODS}


@cache
def rulesets() -> dict:
    """Every ruleset the engine can load, by name: those its registry names."""
    from dvorak_engine.rulesets import all_rulesets

    return all_rulesets()


def seed_deck_rulesets() -> set[str]:
    return {json.loads(path.read_text(encoding="utf-8"))["ruleset"]
            for path in (ROOT / "decks" / "seed_data").glob("*.json")}


def import_project_modules() -> None:
    """Import every module of the project, so every error class it defines is known to Python."""
    for name in PROJECT_PACKAGES:
        package = importlib.import_module(name)
        for module in pkgutil.walk_packages(package.__path__, f"{name}."):
            if ".migrations" not in module.name:
                importlib.import_module(module.name)


def subclasses(cls: type) -> set[type]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= subclasses(sub)
    return found


def python_sources():
    for name in PROJECT_PACKAGES:
        for path in (ROOT / name).rglob("*.py"):
            if "migrations" not in path.parts:
                yield path, path.read_text(encoding="utf-8")


# A call that names its error code: Conflict("…", code="deck_in_game", details=…), across lines.
CODE_KEYWORD = re.compile(r"\b(\w+)\((?:[^()]|\([^()]*\))*?\bcode=\"([a-z_]+)\"", re.DOTALL)


@cache
def error_codes() -> dict[str, int]:
    """Every error code the service can answer with, and its HTTP status."""
    from dvorak_core import errors as site_errors
    from dvorak_kit.api.exceptions import DRF_CODES

    import_project_modules()
    codes: dict[str, int] = dict(site_errors.STATUS_BY_CODE)
    for cls in {site_errors.DomainError, *subclasses(site_errors.DomainError)}:
        codes[cls.code] = cls.status
    for _path, source in python_sources():
        for class_name, code in CODE_KEYWORD.findall(source):
            error_class = getattr(site_errors, class_name, None)
            if isinstance(error_class, type) and issubclass(error_class, site_errors.DomainError):
                codes[code] = error_class("", code=code).status
    # What the exception handler makes of DRF's own exceptions.
    codes["invalid"] = exceptions.ValidationError.status_code
    for drf_error in (exceptions.ParseError, exceptions.AuthenticationFailed, exceptions.NotAuthenticated,
                      exceptions.PermissionDenied, exceptions.NotFound, exceptions.MethodNotAllowed,
                      exceptions.NotAcceptable, exceptions.UnsupportedMediaType, exceptions.Throttled,
                      *(own for own in subclasses(exceptions.APIException)
                        if own.__module__.split(".")[0] in set(PROJECT_PACKAGES))):
        codes[DRF_CODES.get(drf_error.default_code, drf_error.default_code)] = drf_error.status_code
    # What the API makes of a server's failure on any of its paths (a 5xx page turned into the error shape).
    from django.http import HttpResponseServerError

    from dvorak_site.middleware import as_server_error

    failure = as_server_error(HttpResponseServerError())
    codes[json.loads(failure.content)["error"]["code"]] = failure.status_code
    return codes


# --- endpoints --------------------------------------------------------------------------------------------------

ENDPOINT = re.compile(r"^`(GET|POST|PUT|PATCH|DELETE) (/\S*)`$")


def documented_endpoints() -> set[tuple[str, str]]:
    rows = table_rows(section(doc(), "Endpoint index"))
    return {(match[1], match[2]) for row in rows if (match := ENDPOINT.match(row[0]))}


def test_every_endpoint_of_the_schema_is_in_the_index():
    missing = schema_operations() - documented_endpoints()
    assert not missing, f"docs/api.md's endpoint index lacks {sorted(missing)}"


def test_the_index_lists_no_endpoint_the_service_does_not_serve():
    extra = {(method, path) for method, path in documented_endpoints() - schema_operations()
             if not (method == "GET" and path in SCHEMA_PAGES)}
    assert not extra, f"docs/api.md's endpoint index names {sorted(extra)}, which the schema does not have"


def test_every_endpoint_has_a_section_of_its_own():
    body = doc().split("## Endpoint index", 1)[1].split("\n## ", 1)[1]  # everything after the index
    undocumented = sorted(path for _, path in schema_operations()
                          if not re.search(rf"[ `]{re.escape(path)}[`?]", body))
    assert not undocumented, f"no section of docs/api.md describes {undocumented}"


# --- commands ---------------------------------------------------------------------------------------------------


def commands_text(ruleset_name: str) -> str:
    commands = section(doc(), "Commands")
    return section(commands, f"The `{ruleset_name}` ruleset", 3) + section(commands, "Commands of every ruleset", 3)


@pytest.mark.parametrize("name", sorted(rulesets()))
def test_every_command_of_a_ruleset_is_documented_with_its_body(name):
    text = commands_text(name)
    missing = [command for command in rulesets()[name].commands if f'"type": "{command}"' not in text]
    assert not missing, f"docs/api.md shows no {sorted(missing)} command of the {name} ruleset"


@pytest.mark.parametrize("name", sorted(rulesets()))
def test_a_ruleset_section_sends_only_commands_the_ruleset_has(name):
    sent = set(re.findall(r'\{"type": "([a-z_]+)"', section(section(doc(), "Commands"), f"The `{name}` ruleset", 3)))
    unknown = sent - set(rulesets()[name].commands)
    assert not unknown, f"docs/api.md sends {sorted(unknown)} in a {name} game, which has no such command"


def test_every_kind_of_proposal_has_an_example():
    from dvorak_engine.rulesets.dvorak.creative import PROPOSAL_KINDS

    text = section(doc(), "Commands")
    missing = [kind for kind in PROPOSAL_KINDS if f'"kind": "{kind}"' not in text]
    assert not missing, f"docs/api.md has no propose example of kind {missing}"


# --- events -----------------------------------------------------------------------------------------------------


def documented_events() -> dict[str, set[str]]:
    """Event type -> the rulesets the Events table says emit it."""
    events: dict[str, set[str]] = {}
    for row in table_rows(section(doc(), "Events")):
        match = re.fullmatch(r"`([a-z_]+\.[a-z_]+)`", row[0])
        if match:
            names = set(rulesets()) if row[1] == "all" else set(re.findall(r"`([a-z_]+)`", row[1]))
            events.setdefault(match[1], set()).update(names)
    return events


def test_every_event_a_ruleset_emits_is_in_the_events_table():
    documented = documented_events()
    missing = sorted((name, event) for name, ruleset in rulesets().items() for event in ruleset.appliers
                     if name not in documented.get(event, set()))
    assert not missing, f"docs/api.md's Events table lacks (ruleset, event type) {missing}"


def test_the_events_table_names_no_event_a_ruleset_does_not_have():
    wrong = sorted((name, event) for event, names in documented_events().items() for name in names
                   if name not in rulesets() or event not in rulesets()[name].appliers)
    assert not wrong, f"docs/api.md's Events table claims (ruleset, event type) {wrong}"


# --- errors -----------------------------------------------------------------------------------------------------


def documented_errors() -> dict[str, int]:
    rows = table_rows(section(doc(), "Errors"))
    return {row[1].strip("`"): int(row[0]) for row in rows if row[0].isdigit() and row[1].startswith("`")}


def test_every_error_code_is_in_the_table_with_its_status():
    documented = documented_errors()
    wrong = {code: (status, documented.get(code)) for code, status in error_codes().items()
             if documented.get(code) != status}
    assert not wrong, f"docs/api.md's error table disagrees with the code (code: (status, documented)): {wrong}"


def test_the_error_table_names_no_code_the_service_never_sends():
    extra = sorted(set(documented_errors()) - set(error_codes()))
    assert not extra, f"docs/api.md's error table names codes nothing raises: {extra}"


# --- rulesets and variants ---------------------------------------------------------------------------------------


def test_the_ruleset_table_says_which_rulesets_exist():
    rows = [row for row in table_rows(section(doc(), "Rulesets and variants", 3))
            if len(row) == 3 and re.fullmatch(r"`[a-z_0-9]+`", row[0])]
    served = {row[0].strip("`") for row in rows if row[2] == "yes"}
    not_yet = {row[0].strip("`") for row in rows if row[2].startswith("not yet")}
    assert served == set(rulesets())
    assert not_yet == seed_deck_rulesets() - set(rulesets())


def test_every_variant_is_described():
    from dvorak_engine.rulesets.dvorak.state import VARIANTS

    text = section(doc(), "Rulesets and variants", 3)
    assert all(f"| `{variant}` |" in text for variant in VARIANTS)


# --- links ------------------------------------------------------------------------------------------------------


def heading_anchors(text: str) -> set[str]:
    """GitHub's anchors for a Markdown file's headings."""
    anchors: set[str] = set()
    for _, _, heading in headings(text.splitlines()):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        anchor, n = slug, 0
        while anchor in anchors:
            n += 1
            anchor = f"{slug}-{n}"
        anchors.add(anchor)
    return anchors


@pytest.mark.parametrize("page", sorted(path.name for path in DOCS.glob("*.md")))
def test_links_in_the_docs_stay_inside_the_repository_and_resolve(page):
    text = (DOCS / page).read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        assert "://" not in target, f"{page} links outside the repository: {target}"
        file_part, _, anchor = target.partition("#")
        linked = (DOCS / file_part).resolve() if file_part else DOCS / page
        assert linked.is_relative_to(ROOT) and linked.is_file(), f"{page} links to a missing file: {target}"
        if anchor:
            assert anchor in heading_anchors(linked.read_text(encoding="utf-8")), f"{page}: no heading #{anchor}"
