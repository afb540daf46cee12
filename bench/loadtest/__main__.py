"""A tournament event under load: `python -m bench.loadtest` (docs/loadtest.md).

Starts the stack (or targets one with --url), creates one rated arena tournament per game,
signs in --players bot players who join, follow the tournament and play every pairing
through the gateway's gRPC-web API at --pace commands/s, for --seconds. Prints progress
every second; afterwards checks every match and writes var/reports/loadtest-<time>.json
and .html. Exit status 1 when a check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from bench.loadtest.capacity import QUIET_WAIT_S, find_capacity
from bench.loadtest.runner import run
from bench.loadtest.settings import DEFAULT_PLAYERS, DEFAULT_SECONDS, FAULTS, HUMAN_PACE, Settings


def parse(argv: list[str]) -> tuple[Settings, argparse.Namespace]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="", help="a running stack's gateway; else start one")
    parser.add_argument("--nats", default="", help="with --url: its NATS (default :7422)")
    parser.add_argument("--players", type=int, default=DEFAULT_PLAYERS)
    parser.add_argument(
        "--seconds", type=float, default=DEFAULT_SECONDS, help="the tournaments' length"
    )
    parser.add_argument("--pace", type=float, default=HUMAN_PACE, help="commands/s per player")
    parser.add_argument(
        "--games", default="spit,bid", help="one tournament per game, players split"
    )
    parser.add_argument("--fault", choices=FAULTS, default="none")
    parser.add_argument("--fault-at", type=float, default=20.0, help="seconds into the run")
    parser.add_argument("--out", type=Path, default=Path("var/reports"))
    parser.add_argument("--workers", type=int, default=2, help="load generator processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--data-dir", type=Path, default=None, help="own stack: keep its data and logs here"
    )
    parser.add_argument("--find-capacity", action="store_true", help="step up the load (capacity)")
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=QUIET_WAIT_S,
        help="capacity: wait this long for load < 1",
    )
    args = parser.parse_args(argv)
    settings = Settings(
        players=args.players,
        seconds=args.seconds,
        pace=args.pace,
        games=tuple(g.strip() for g in args.games.split(",") if g.strip()),
        fault=args.fault,
        fault_at_s=args.fault_at,
        out=args.out,
        url=args.url,
        nats_url=args.nats,
        workers=args.workers,
        seed=args.seed,
        data_dir=args.data_dir,
    )
    problems = settings.problems()
    if problems:
        parser.error("; ".join(problems))
    return settings, args


def main() -> None:
    settings, args = parse(sys.argv[1:])
    if args.find_capacity:
        asyncio.run(find_capacity(settings, args.quiet_wait))
        return
    report = asyncio.run(run(settings))
    print(summary(report))
    sys.exit(0 if report["all_checks_passed"] else 1)


def summary(report: dict[str, Any]) -> str:
    """Return the lines printed at the end: figures, checks, where the report is."""
    latency = report["latency_ms"]
    lines = [
        f"submit → both views: {latency}",
        f"timer lateness: {report['timer_lateness_ms']}",
        f"log store per awaited entry: {report['log_store_ms']}",
        f"memory: {report['memory']}",
        f"commands: {report['commands']}",
    ]
    for check in report["checks"]:
        mark = "PASS" if check["passed"] else "FAIL"
        lines.append(
            f"{mark} {check['name']} (checked {check['checked']}, failed {check['failed']})"
        )
        lines += [f"     {text}" for text in check["failures"] + check["notes"]]
    lines.append(f"report: {report['files']}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
