"""Sum up a run made of several pytest steps from their JUnit reports: the slowest tests, then one closing line.

`make test` runs the suite in two steps (the parallel one, then the tests that must run alone); each writes a JUnit
report, and this prints the 25 slowest tests of both (setup and teardown included, as pytest's --durations counts
them) and the run's totals, in the form ``tests: N passed, N failed, N skipped``.

    python scripts/test_report.py [--slowest N] REPORT.xml...
"""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", type=Path)
    parser.add_argument("--slowest", type=int, default=25)
    args = parser.parse_args()

    timings: list[tuple[float, str]] = []
    passed = failed = skipped = 0
    for report in args.reports:
        if not report.exists():  # a step that did not get as far as writing it has said why above
            print(f"no report at {report}")
            failed += 1
            continue
        for case in ET.parse(report).getroot().iter("testcase"):
            name = f"{case.get('classname')}::{case.get('name')}"
            timings.append((float(case.get("time") or 0), name))
            outcome = {child.tag for child in case}
            if outcome & {"failure", "error"}:
                failed += 1
            elif "skipped" in outcome:
                skipped += 1
            else:
                passed += 1

    print(f"\nThe {args.slowest} slowest tests (seconds, setup and teardown included):")
    for seconds, name in sorted(timings, reverse=True)[: args.slowest]:
        print(f"{seconds:8.2f}  {name}")
    print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")


if __name__ == "__main__":
    main()
