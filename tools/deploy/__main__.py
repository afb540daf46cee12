"""`python -m tools.deploy test|build|down`: the deployment built, run, checked, removed.

``test`` installs what it needs (the doctor's deploy stage; a tool it cannot install stops
the run with its name and package), builds the images (or reuses them), brings the compose
topology up in dependency order, runs the checks (docs/deploy.md), prints the figures,
writes var/deploy/report.json and tears everything down, whatever happened. Exit status 1
when a check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import time
from types import FrameType

from tools.deploy import compose, images
from tools.deploy.credentials import Credentials
from tools.deploy.host import WORK
from tools.deploy.scenario import Scenario, free_ports
from tools.doctor.checkup import ensure
from tools.doctor.needs import Stage


def build() -> tuple[dict[str, object], dict[str, images.Built]]:
    """Build or reuse every image; return their figures, and the images by role."""
    started = time.monotonic()
    base, built = images.build_all()
    figures: dict[str, object] = {
        "base": {"ref": base.ref, "reused": base.reused, "seconds": round(base.seconds, 1)},
        **{
            role: {"ref": b.ref, "reused": b.reused, "seconds": round(b.seconds, 1)}
            for role, b in built.items()
        },
        "total_seconds": round(time.monotonic() - started, 1),
    }
    print(f"images: {json.dumps(figures)}", flush=True)
    return figures, built


def _stop(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def test(players: int, seconds: float) -> int:
    """Run the whole deployment test; return the exit status."""
    ensure([Stage.DEPLOY])
    figures, built = build()
    env = {
        "PF_IMAGE": built["app"].ref,
        "PF_NATS_IMAGE": built["nats"].ref,
        "PF_POSTGRES_IMAGE": built["postgres"].ref,
        "PF_PROMETHEUS_IMAGE": built["prometheus"].ref,
        # Fresh secrets each run: the token key, NATS passwords, caller tokens, …
        **Credentials.new().compose_env(),
        **free_ports(),
    }
    signal.signal(signal.SIGTERM, _stop)
    compose.tear_down()
    scenario = Scenario(env, built["prometheus"].ref, players, seconds)
    try:
        result = asyncio.run(scenario.run())
    finally:
        left = compose.tear_down()
        print("torn down" if not left else f"could not remove: {left}", flush=True)
    result["images"] = figures
    WORK.mkdir(parents=True, exist_ok=True)
    (WORK / "report.json").write_text(json.dumps(result, indent=2, default=str))
    failures = result["failures"]
    assert isinstance(failures, list)
    for failure in failures:
        print(f"FAIL {failure}", flush=True)
    print(f"report: {WORK / 'report.json'}", flush=True)
    return 1 if failures else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=("test", "build", "down"))
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    if args.action == "build":
        ensure([Stage.DEPLOY])
        build()
    elif args.action == "down":
        left = compose.tear_down()
        sys.exit(1 if left else 0)
    else:
        sys.exit(test(args.players, args.seconds))


if __name__ == "__main__":
    main()
