"""The suite's own set-up: the tiers name tests that exist, campaigns take their size as tests/sizes.py says, each
xdist worker keeps to its own Redis prefixes and share of the pool, and `make test`'s report adds the steps up."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from django.conf import settings

from tests import sizes
from tests.conftest import TIERS
from tests.seeds import ROOT


@pytest.mark.parametrize("entry", sorted({entry for entries in TIERS.values() for entry in entries}))
def test_every_tier_entry_names_a_test_file_or_a_test_in_it(entry):
    """A renamed test must not drop out of its tier (out of `make soak`, or out of the serial step) unnoticed."""
    path, _, test = entry.partition("::")
    source = ROOT / path
    assert source.is_file(), f"{entry}: no such file"
    if test:
        assert re.search(rf"^(async )?def {re.escape(test)}\(", source.read_text(encoding="utf-8"), re.M), (
            f"{entry}: no such test in {path}"
        )


def test_serial_tests_are_system_tests():
    assert set(TIERS["serial"]) <= set(TIERS["system"])


def test_a_campaign_is_small_by_default_full_under_soak_and_its_own_variable_wins(monkeypatch):
    monkeypatch.delenv("SOME_GAMES", raising=False)
    monkeypatch.setattr(sizes, "SOAK", False)
    assert sizes.size("SOME_GAMES", 3, 20) == 3
    monkeypatch.setattr(sizes, "SOAK", True)
    assert sizes.size("SOME_GAMES", 3, 20) == 20
    monkeypatch.setenv("SOME_GAMES", "7")
    assert sizes.size("SOME_GAMES", 3, 20) == 7


@pytest.mark.skipif(not os.environ.get("PYTEST_XDIST_WORKER"), reason="runs under pytest-xdist (make test)")
def test_an_xdist_worker_has_its_own_prefixes_and_its_share_of_the_pool():
    worker = os.environ["PYTEST_XDIST_WORKER"]
    if "KEY_PREFIX" in settings.CACHES["default"]:
        assert settings.CACHES["default"]["KEY_PREFIX"].endswith(f"-{worker}")
        assert os.environ["CACHE_KEY_PREFIX"] == settings.CACHES["default"]["KEY_PREFIX"]
    if "prefix" in settings.CHANNEL_LAYERS["default"].get("CONFIG", {}):
        assert settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"].endswith(f"-{worker}")
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    if pool:
        assert os.environ["DB_POOL_MAX_SIZE"] == str(pool["max_size"])


def junit(tmp_path, name: str, cases: str) -> str:
    path = tmp_path / name
    path.write_text(f'<testsuites><testsuite name="pytest">{cases}</testsuite></testsuites>', encoding="utf-8")
    return str(path)


def test_the_run_report_adds_up_both_steps_and_lists_the_slowest_first(tmp_path):
    parallel = junit(tmp_path, "parallel.xml",
                     '<testcase classname="tests.a" name="fast" time="0.5"/>'
                     '<testcase classname="tests.a" name="broken" time="2"><failure message="no"/></testcase>'
                     '<testcase classname="tests.b" name="absent" time="0"><skipped message="why"/></testcase>')
    serial = junit(tmp_path, "serial.xml", '<testcase classname="tests.c" name="slowest" time="9.25"/>')
    shown = subprocess.run([sys.executable, str(ROOT / "scripts" / "test_report.py"), "--slowest", "2", parallel, serial],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    assert shown[-1] == "tests: 2 passed, 1 failed, 1 skipped"
    assert [line.split()[-1] for line in shown[-3:-1]] == ["tests.c::slowest", "tests.a::broken"]


def test_a_step_that_wrote_no_report_counts_as_a_failure(tmp_path):
    shown = subprocess.run([sys.executable, str(ROOT / "scripts" / "test_report.py"), str(tmp_path / "none.xml")],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    assert shown[-1] == "tests: 0 passed, 1 failed, 0 skipped"
