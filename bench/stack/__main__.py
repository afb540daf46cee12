"""Whole-stack speed: many live matches at human pace, command → both players' views.

Run with ``make bench`` (or ``python -m bench.stack --matches 100 --seconds 30``).

The real stack (nats-server, rules, ratings, arbitration, matchmaking, gateway) starts on
free loopback ports in a temporary folder. Worker processes sign in two guests per match
through the gateway, pair them with a casual challenge, and play both seats with the
engines' HARD bots (``clients.bots.seat.SeatPlayer``) through the public API. Every
submit is timed from just before the call until *both* seats' Watch streams have
delivered an update numbered at least as high as the number the reply gave the command.
After the run, a table gives the latency percentiles, the refusals by reason, and the
CPU seconds and memory of every process — the stack's and the load generator's, which
shares the same machine — so the bottleneck can be read off.

Pace: every think time is multiplied by a per-game scale (``--spit-scale``,
``--bid-scale``) chosen so that a player averages about 2 commands per second (accepted
or refused), the design's human pace; the printout gives the pace each game reached.
Spit's HARD bot thinks ~380 ms (median), but waits while it has no play and restarts its
thought when the piles change under it: at its own pace (scale 1) it sent ~1.9
commands/s, so it runs at 0.9. Bid is turn-based, so a player acts at most every other
step: its think times (HARD 600–1500 ms, 300–900 at gates) at scale 0.2 gave ~2.6
commands/s and at 0.27 ~1.9, so it runs at 0.25. A slower stack slows the pace a little,
as it would slow a person.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from bench.floor.run import SHAPES
from bench.stack.runner import bench
from bench.stack.settings import BID_THINK_SCALE, SPIT_THINK_SCALE
from bench.stack.timeline import TRANSPORTS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100, help="concurrent matches")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long they are measured")
    parser.add_argument(
        "--warmup", type=float, default=3.0, help="matches start spread over this; not measured"
    )
    parser.add_argument("--game", choices=("spit", "bid", "both"), default="both")
    parser.add_argument("--workers", type=int, default=2, help="load generator processes")
    parser.add_argument("--spit-scale", type=float, default=SPIT_THINK_SCALE)
    parser.add_argument("--bid-scale", type=float, default=BID_THINK_SCALE)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="DIR",
        help="sample rules, arbitration and gateway with py-spy in the window; raw files in DIR",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="measure the floor (bench.floor) at the same load before the stack and again"
        " after it, and print the ratio to their mean (the machine's speed drifts)",
    )
    parser.add_argument(
        "--floor-shape",
        choices=SHAPES,
        default="relay",
        help="the floor's shape: one hop to a relay, the fewest hops the design allows, or those"
        " hops with a judge stepping real matches, sending views or changes",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="pin the whole stack to CPU 0 and the load workers to CPU 1 (taskset's way)",
    )
    parser.add_argument(
        "--transport",
        choices=TRANSPORTS,
        default="socket",
        help="how the players play: each seat on its play socket, or gRPC-web Watch + Submit",
    )
    args = parser.parse_args()
    if not (
        1 <= args.matches <= 2000
        and 0 < args.seconds <= 600
        and 0 <= args.warmup <= 60
        and 1 <= args.workers <= 16
    ):
        parser.error("1–2000 matches, 0–600 seconds, 0–60 s warm-up and 1–16 workers")
    args.workers = min(args.workers, args.matches)
    asyncio.run(bench(args))


if __name__ == "__main__":
    main()
