"""`make audit` (scripts/audit.py): a vulnerability fails it; a service out of reach is reported as an audit not
done, never as a clean one, and fails it except under CI's --unreachable-ok.

pip-audit is replaced by a stand-in module of the same name, first on PYTHONPATH, that answers each vulnerability
service as the test says (no service is asked).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

STAND_IN = """
import json, os, sys
args = sys.argv[1:]
service = args[args.index("--vulnerability-service") + 1]
answer = json.loads(os.environ["AUDIT_ANSWERS"])[service]
if answer is None:
    sys.exit("requests.exceptions.ConnectionError: the service is unreachable")
with open(args[args.index("--output") + 1], "w") as output:
    json.dump(answer, output)
sys.exit(1 if any(d.get("vulns") for d in answer["dependencies"]) else 0)
"""

CLEAN = {"dependencies": [{"name": "django", "version": "5.2.19", "vulns": []}], "fixes": []}
NOT_FOUND = {
    "dependencies": [
        {"name": "django", "skip_reason": "Dependency not found on PyPI and could not be audited"}
    ],
    "fixes": [],
}
VULNERABLE = {
    "dependencies": [
        {
            "name": "django",
            "version": "5.2.1",
            "vulns": [{"id": "PYSEC-2099-1", "fix_versions": ["5.2.2"], "aliases": ["CVE-2099-1"]}],
        }
    ],
    "fixes": [],
}


def audit(tmp_path, answers, *flags):
    package = tmp_path / "stand_in" / "pip_audit"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "__main__.py").write_text(STAND_IN)
    environment = os.environ | {
        "PYTHONPATH": str(tmp_path / "stand_in"),
        "AUDIT_ANSWERS": json.dumps(answers),
    }
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "audit.py"), *flags, str(ROOT / "requirements" / "lock.txt")],
        capture_output=True, text=True, env=environment, timeout=60,
    )  # fmt: skip


def test_a_clean_audit_passes(tmp_path):
    result = audit(tmp_path, {"pypi": CLEAN, "osv": None})
    assert result.returncode == 0
    assert "1 pinned packages" in result.stdout and "no known vulnerability" in result.stdout


def test_a_known_vulnerability_fails_even_in_ci(tmp_path):
    result = audit(tmp_path, {"pypi": VULNERABLE, "osv": None}, "--unreachable-ok")
    assert result.returncode == 1
    assert "django 5.2.1: PYSEC-2099-1 (CVE-2099-1), fixed in 5.2.2" in result.stdout


def test_every_pin_skipped_is_no_audit_and_the_next_service_is_asked(tmp_path):
    result = audit(tmp_path, {"pypi": NOT_FOUND, "osv": VULNERABLE})
    assert result.returncode == 1
    assert "(osv)" in result.stdout and "PYSEC-2099-1" in result.stdout


def test_no_service_reachable_is_reported_as_not_done(tmp_path):
    result = audit(tmp_path, {"pypi": NOT_FOUND, "osv": None})
    assert result.returncode == 2
    assert "NOT DONE" in result.stdout and "unreachable" in result.stdout
    in_ci = audit(tmp_path / "ci", {"pypi": NOT_FOUND, "osv": None}, "--unreachable-ok")
    assert in_ci.returncode == 0
    assert "NOT DONE" in in_ci.stdout
