"""Settings from the environment: the embedded default, and production refusing the development key."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def settings_in_subprocess(env: dict, expr: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_DEBUG", "DJANGO_SECRET_KEY"}}
    code = f"import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'dvorak_site.settings'); django.setup(); from django.conf import settings as s; print({expr})"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True)


def test_with_nothing_set_the_embedded_default_runs(tmp_path):
    result = settings_in_subprocess(
        {"DVORAK_VAR_DIR": str(tmp_path)},
        "s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'], s.CELERY_TASK_ALWAYS_EAGER",
    )
    assert result.returncode == 0, result.stderr
    assert "sqlite3" in result.stdout and "InMemoryChannelLayer" in result.stdout and "True" in result.stdout


def test_database_and_redis_urls_switch_to_postgres_and_redis(tmp_path):
    result = settings_in_subprocess(
        {"DATABASE_URL": "postgres://u@db:5432/dvorak", "REDIS_URL": "redis://cache:6379/0"},
        "s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'], s.CELERY_TASK_ALWAYS_EAGER, s.CELERY_BROKER_URL",
    )
    assert result.returncode == 0, result.stderr
    assert "postgresql" in result.stdout and "RedisChannelLayer" in result.stdout
    assert "False" in result.stdout and "redis://cache:6379/0" in result.stdout


def test_production_mode_refuses_the_development_secret_key(tmp_path):
    refused = settings_in_subprocess({"DJANGO_DEBUG": "0", "DVORAK_VAR_DIR": str(tmp_path)}, "s.DEBUG")
    assert refused.returncode != 0
    assert "DJANGO_SECRET_KEY" in refused.stderr
    accepted = settings_in_subprocess(
        {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "x" * 50, "DVORAK_VAR_DIR": str(tmp_path)}, "s.DEBUG"
    )
    assert accepted.returncode == 0, accepted.stderr
    assert accepted.stdout.strip() == "False"
