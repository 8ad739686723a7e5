"""Audit the lock's pinned versions for known vulnerabilities (pip-audit), and say plainly what was not audited.

pip-audit asks a vulnerability service about each pin: PyPI's JSON API first, then OSV's if PyPI's could not
answer for every pin. Where neither can be reached (a network that reaches PyPI's package index but not these
APIs), pip-audit itself reports every pin as "skipped" and exits 0, which reads like a clean audit; this script
counts those instead:

- exit 0: every pin audited, no known vulnerability;
- exit 1: a known vulnerability in a pin (each listed, with the versions that fix it): upgrade the pin
  (`make lock UPGRADE=1`, or raise the lower bound in pyproject.toml, then `make lock`);
- exit 2: some pins could not be audited (the service unreachable); with ``--unreachable-ok`` (CI's) this is
  reported just as loudly but exits 0, so CI fails for a vulnerability found, not for a network that is away.

    python scripts/audit.py [--unreachable-ok] requirements/lock.txt
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

SERVICES = ("pypi", "osv")


def run_pip_audit(lock: Path, service: str) -> tuple[dict[str, Any] | None, str]:
    """pip-audit's JSON report of ``lock`` from ``service``, or None and the reason it gave none."""
    with tempfile.TemporaryDirectory() as scratch:
        output = Path(scratch) / "audit.json"
        command = [
            sys.executable, "-m", "pip_audit", "--requirement", str(lock), "--require-hashes", "--disable-pip",
            "--vulnerability-service", service, "--progress-spinner", "off", "--format", "json",
            "--output", str(output),
        ]  # fmt: skip
        result = subprocess.run(command, capture_output=True, text=True)
        if output.exists() and output.stat().st_size:
            return json.loads(output.read_text()), ""
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        return None, lines[-1] if lines else f"pip-audit exited {result.returncode} with no report"


def verdict(report: dict[str, Any]) -> tuple[list[str], list[str], int]:
    """The report's vulnerabilities (one line each), its pins not audited (one line each), and the pins audited."""
    found: list[str] = []
    skipped: list[str] = []
    audited = 0
    for dependency in report.get("dependencies", []):
        name = dependency["name"]
        if "skip_reason" in dependency:
            skipped.append(f"{name}: {dependency['skip_reason']}")
            continue
        audited += 1
        for vulnerability in dependency.get("vulns", []):
            fixes = ", ".join(vulnerability.get("fix_versions") or []) or "none yet"
            aliases = ", ".join(vulnerability.get("aliases") or [])
            found.append(
                f"{name} {dependency.get('version', '?')}: {vulnerability['id']}"
                + (f" ({aliases})" if aliases else "")
                + f", fixed in {fixes}"
            )
    return found, skipped, audited


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lock", type=Path)
    parser.add_argument(
        "--unreachable-ok",
        action="store_true",
        help="exit 0 when the vulnerability services cannot be reached (still reported); fail only for a finding",
    )
    args = parser.parse_args()

    reasons: list[str] = []
    for service in SERVICES:
        report, reason = run_pip_audit(args.lock, service)
        if report is None:
            reasons.append(f"{service}: {reason}")
            continue
        found, skipped, audited = verdict(report)
        if found:
            print(f"audit ({service}): {len(found)} known vulnerabilities in {args.lock}:")
            for line in found:
                print(f"  {line}")
            print(
                "Upgrade those pins: `make lock UPGRADE=1` (or a higher lower bound in pyproject.toml, then `make lock`)."
            )
            return 1
        if not skipped:
            print(
                f"audit ({service}): {audited} pinned packages of {args.lock} audited, no known vulnerability."
            )
            return 0
        reasons.append(
            f"{service}: {len(skipped)} of {len(skipped) + audited} pins not audited (first: {skipped[0]})"
        )
        if audited:  # the service answered for some: what it could not audit is listed, not retried elsewhere
            print(
                f"audit ({service}): {audited} pins audited, no known vulnerability among them; not audited:"
            )
            for line in skipped:
                print(f"  {line}")
            break

    print(f"audit: NOT DONE: no vulnerability service answered for every pin of {args.lock}.")
    for reason in reasons:
        print(f"  {reason}")
    if args.unreachable_ok:
        print(
            "audit: not counted as a failure here (--unreachable-ok); run `make audit` where the services are reachable."
        )
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
