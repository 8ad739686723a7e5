"""docker-compose.yml writes down no password: each comes from .env, whose template (.env.example) lists it empty.

No Docker runs here, so the files are read: compose's `${NAME:?message}` refuses to start while NAME is unset or
empty, which is what a copied .env.example that was not filled in gives.
"""

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
yaml = pytest.importorskip("yaml")

REQUIRED = re.compile(r"\$\{(\w+):\?[^}]*\}")


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def strings(node) -> list[str]:
    """Every string value in the parsed file (its comments are gone by then)."""
    if isinstance(node, dict):
        return [text for value in node.values() for text in strings(value)]
    if isinstance(node, list):
        return [text for value in node for text in strings(value)]
    return [node] if isinstance(node, str) else []


def env_example() -> dict[str, str]:
    lines = (ROOT / ".env.example").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if re.match(r"^\w+=", line))


def test_every_password_compose_needs_is_in_env_example_and_empty_there():
    required = {name for text in strings(compose()) for name in REQUIRED.findall(text)}
    assert {"POSTGRES_PASSWORD", "DVORAK_APP_DB_PASSWORD"} <= required
    example = env_example()
    for name in required:
        assert name in example, f"{name}: docker-compose.yml requires it, .env.example does not list it"
        assert example[name] == "", f"{name}: .env.example gives it a value, which every copy would share"


def test_compose_writes_no_password():
    for service_name, service in compose()["services"].items():
        for name, value in (service.get("environment") or {}).items():
            value = str(value)
            if "PASSWORD" in name:
                assert value == "" or REQUIRED.fullmatch(value), f"{service_name}: {name} is written out"
            for password in re.findall(r"postgres://[^:/@]+:([^@]*)@", value):
                assert REQUIRED.fullmatch(password), f"{service_name}: {name} has a password written in it"


def test_the_app_does_not_see_the_owners_password():
    """The servers, worker and beat run as the runtime role: the owner's password (which could disable the event
    table's triggers) reaches only the postgres container and migrate's URL, not their environment via .env."""
    services = compose()["services"]
    for name in ("web", "ws", "worker", "beat"):
        environment = services[name]["environment"]
        assert environment["POSTGRES_PASSWORD"] == ""
        assert "POSTGRES_PASSWORD" not in environment["DATABASE_URL"]


def test_the_runtime_role_is_never_created_with_a_known_password():
    environment = {key: value for key, value in os.environ.items() if key != "DVORAK_APP_DB_PASSWORD"}
    environment |= {"POSTGRES_USER": "nobody", "POSTGRES_DB": "nothing", "PATH": "/usr/bin:/bin"}
    script = ROOT / "deploy/postgres-init/10-runtime-role.sh"
    result = subprocess.run(["sh", str(script)], env=environment, capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert "DVORAK_APP_DB_PASSWORD" in result.stderr
    assert "DVORAK_APP_DB_PASSWORD:-" not in script.read_text(), "a default password in the script"
