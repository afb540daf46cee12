"""`python -m tools.doctor [--check] [STAGE ...]`: the tools `make test` needs, made ready.

For each tool: present, installed just now, or missing with the reason (the package that
provides it and apt-get's own words). Exit status 1 while anything is missing. ``--check``
installs nothing. Without stages, every stage's tools.
"""

from __future__ import annotations

import argparse
import sys

from tools.doctor.checkup import Status, examine, report
from tools.doctor.needs import Stage


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    names = ", ".join(stage.value for stage in Stage)
    parser.add_argument("stages", nargs="*", metavar="STAGE", help=f"any of: {names}")
    parser.add_argument("--check", action="store_true", help="look only; install nothing")
    args = parser.parse_args()
    unknown = [value for value in args.stages if value not in {s.value for s in Stage}]
    if unknown:
        parser.error(f"unknown stage {unknown[0]!r}: choose from {names}")
    stages = [Stage(value) for value in args.stages] or list(Stage)
    verdicts = examine(stages, install=not args.check)
    print(report(verdicts), flush=True)
    sys.exit(1 if any(v.status is Status.MISSING for v in verdicts) else 0)


if __name__ == "__main__":
    main()
