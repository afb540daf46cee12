"""``make fuzz``: the hostile campaign at length against a stack of its own.

    python -m bench.hostile --requests 100000

Prints what was sent, every answer by status and reason, the floods' outcome, the
gateway's CPU, memory and descriptors, and anything that did not hold (exit 1 then).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from bench.hostile.campaign import STACK_ENV, run
from runtime import loops
from services.stack.stack import StackConfig, run_stack


async def main(requests: int, seed: int, concurrency: int) -> int:
    with tempfile.TemporaryDirectory(prefix="pf-fuzz-") as data:
        config = StackConfig(Path(data), with_bots=False, extra_env=STACK_ENV)
        async with run_stack(config) as stack:
            report = await run(stack, requests, seed, concurrency)
    print("\n".join(report.lines()))
    return 1 if report.problems else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    sys.exit(loops.run(main(args.requests, args.seed, args.concurrency)))
