"""The floor alone: ``python -m bench.floor --matches 30 --seconds 20``."""

from __future__ import annotations

import argparse
import asyncio

from bench.floor.run import SHAPES, run_floor
from bench.stack.timeline import TRANSPORTS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--pace", type=float, default=2.0, help="commands/s per player")
    parser.add_argument("--transport", choices=TRANSPORTS, default="socket")
    parser.add_argument(
        "--shape",
        choices=SHAPES,
        default="relay",
        help="one hop to a relay, the fewest hops the design allows (bench.floor.chain), or those"
        " hops with a judge stepping real matches (bench.floor.rules_judge), sending views or"
        " changes, and the step's facts to the stamper after a clocked step or (-facts) every"
        " step",
    )
    args = parser.parse_args()
    floor = asyncio.run(
        run_floor(
            args.matches,
            args.seconds,
            args.warmup,
            args.pace,
            transport=args.transport,
            shape=args.shape,
        )
    )
    print("\n".join(floor.lines()))


if __name__ == "__main__":
    main()
