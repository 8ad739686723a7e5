"""Settings from the environment (and an optional .env file): the embedded default, production refusing the
development key, SQLite by URL, a clean `check --deploy`, and a health check that answers any probe."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What the caller's environment may set that these tests decide for themselves.
OWN = {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CELERY_TASK_ALWAYS_EAGER",
       "CELERY_BROKER_TRANSPORT_OPTIONS", "DVORAK_VAR_DIR"}


def clean_environment(tmp_path: Path, env: dict) -> dict:
    inherited = {k: v for k, v in os.environ.items() if k not in OWN and not k.startswith("DJANGO_")}
    # A developer's .env at the project root plays no part unless a test names one.
    return {**inherited, "DVORAK_VAR_DIR": str(tmp_path / "var"), "DJANGO_ENV_FILE": str(tmp_path / "no.env"), **env}


def settings_in_subprocess(tmp_path: Path, env: dict, expr: str) -> subprocess.CompletedProcess:
    code = f"import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'dvorak_site.settings'); django.setup(); from django.conf import settings as s; print(repr(({expr})))"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean_environment(tmp_path, env),
                          capture_output=True, text=True)


def manage(tmp_path: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=clean_environment(tmp_path, env),
                          capture_output=True, text=True)


def production(**extra: str) -> dict:
    return {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50), **extra}


def test_with_nothing_set_the_embedded_default_runs(tmp_path):
    result = settings_in_subprocess(
        tmp_path, {},
        "s.DATABASES['default']['ENGINE'], s.DATABASES['default']['OPTIONS'], s.CHANNEL_LAYERS['default']['BACKEND'], s.CELERY_TASK_ALWAYS_EAGER",
    )
    assert result.returncode == 0, result.stderr
    assert "sqlite3" in result.stdout and "InMemoryChannelLayer" in result.stdout and "True" in result.stdout
    assert "'transaction_mode': 'IMMEDIATE'" in result.stdout and "'pool'" not in result.stdout


def test_database_and_redis_urls_switch_to_postgres_and_redis(tmp_path):
    result = settings_in_subprocess(
        tmp_path, {"DATABASE_URL": "postgres://u@db:5432/dvorak", "REDIS_URL": "redis://cache:6379/0", "DB_POOL_MAX_SIZE": "4"},
        "s.DATABASES['default']['ENGINE'], s.DATABASES['default']['OPTIONS']['pool'], s.CHANNEL_LAYERS['default']['BACKEND'], s.CELERY_TASK_ALWAYS_EAGER, s.CELERY_BROKER_URL",
    )
    assert result.returncode == 0, result.stderr
    assert "postgresql" in result.stdout and "RedisChannelLayer" in result.stdout
    assert "'max_size': 4" in result.stdout
    assert "False" in result.stdout and "redis://cache:6379/0" in result.stdout


def test_a_sqlite_database_url_migrates_and_checks(tmp_path):
    database = tmp_path / "elsewhere" / "dvorak.sqlite3"
    database.parent.mkdir()
    env = {"DATABASE_URL": f"sqlite:///{database}"}  # an absolute path: sqlite:////tmp/…

    migrated = manage(tmp_path, env, "migrate", "--noinput")
    assert migrated.returncode == 0, migrated.stderr
    checked = manage(tmp_path, env, "check")
    assert checked.returncode == 0, checked.stderr
    assert database.stat().st_size > 0
    assert not (tmp_path / "var" / "dvorak.sqlite3").exists()  # not the embedded default's file
    options = settings_in_subprocess(tmp_path, env, "s.DATABASES['default']['OPTIONS']")
    assert options.stdout.strip() == "{'timeout': 20, 'transaction_mode': 'IMMEDIATE'}"


def test_production_mode_refuses_the_development_secret_key(tmp_path):
    refused = settings_in_subprocess(tmp_path, {"DJANGO_DEBUG": "0"}, "s.DEBUG")
    assert refused.returncode != 0
    assert "DJANGO_SECRET_KEY" in refused.stderr
    empty = settings_in_subprocess(tmp_path, {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": ""}, "s.DEBUG")
    assert empty.returncode != 0, "an empty key (as .env.example has it) is no key"
    accepted = settings_in_subprocess(tmp_path, {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "x" * 50}, "s.DEBUG")
    assert accepted.returncode == 0, accepted.stderr
    assert accepted.stdout.strip() == "False"


def test_check_deploy_is_clean_with_debug_off(tmp_path):
    checked = manage(tmp_path, production(), "check", "--deploy", "--fail-level", "WARNING")
    assert checked.returncode == 0, checked.stderr + checked.stdout


def test_plain_http_on_localhost_is_a_setting_away_and_check_deploy_says_so(tmp_path):
    local = production(DJANGO_SECURE_SSL_REDIRECT="0", DJANGO_SECURE_COOKIES="0")
    result = settings_in_subprocess(tmp_path, local, "s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE")
    assert result.stdout.strip() == "(False, False, False)", result.stderr
    checked = manage(tmp_path, local, "check", "--deploy", "--fail-level", "WARNING")
    assert checked.returncode != 0
    assert "security.W008" in checked.stderr and "security.W012" in checked.stderr


def test_the_https_settings_follow_debug_and_their_variables(tmp_path):
    on = settings_in_subprocess(
        tmp_path, production(),
        "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD, s.SECURE_PROXY_SSL_HEADER",
    )
    assert on.stdout.strip() == "(True, 31536000, True, True, ('HTTP_X_FORWARDED_PROTO', 'https'))", on.stderr
    tuned = settings_in_subprocess(
        tmp_path, production(DJANGO_SECURE_HSTS_SECONDS="3600", DJANGO_SECURE_HSTS_PRELOAD="0", DJANGO_SECURE_PROXY_SSL_HEADER=""),
        "s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_PRELOAD, s.SECURE_PROXY_SSL_HEADER",
    )
    assert tuned.stdout.strip() == "(3600, False, None)", tuned.stderr
    development = settings_in_subprocess(tmp_path, {}, "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE")
    assert development.stdout.strip() == "(False, 0, False)", development.stderr


def test_an_env_file_is_read_and_the_environment_wins(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# comments and blank lines are fine\n\n"
        "THROTTLE_ANON=7/min\nTHROTTLE_USER=9/min\nDJANGO_ALLOWED_HOSTS=dvorak.example.org,.example.net\n"
        "CELERY_BROKER_TRANSPORT_OPTIONS=visibility_timeout=30,unacked_restore_interval=2\n"
    )
    result = settings_in_subprocess(
        tmp_path, {"DJANGO_ENV_FILE": str(env_file), "THROTTLE_USER": "11/min"},
        "s.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'], s.ALLOWED_HOSTS, s.CELERY_BROKER_TRANSPORT_OPTIONS",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "({'anon': '7/min', 'user': '11/min'}, ['dvorak.example.org', '.example.net'], "
        "{'visibility_timeout': 30, 'unacked_restore_interval': 2})"
    )


@pytest.mark.django_db
def test_the_health_check_answers_any_host_over_plain_http(api_client, settings):
    """Compose's health check asks http://127.0.0.1:8000/api/v1/health/ whatever DJANGO_ALLOWED_HOSTS says."""
    settings.ALLOWED_HOSTS = ["dvorak.example.org"]
    settings.SECURE_SSL_REDIRECT = True

    health = api_client.get("/api/v1/health/", HTTP_HOST="127.0.0.1:8000")
    assert health.status_code == 200, health.content
    assert health.json()["status"] == "ok"
    # Everything else still refuses a host it does not serve, and sends plain HTTP to HTTPS.
    assert api_client.get("/api/v1/decks/", HTTP_HOST="127.0.0.1:8000").status_code == 400
    redirected = api_client.get("/api/v1/decks/", HTTP_HOST="dvorak.example.org")
    assert redirected.status_code == 301 and redirected["Location"] == "https://dvorak.example.org/api/v1/decks/"
