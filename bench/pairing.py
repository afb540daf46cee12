"""Matchmaking speed: the time to pair 10,000 waiting tickets in one queue.

Run with ``make bench`` (or ``python -m bench.pairing --tickets 10000``). The tickets get
ratings spread like a ladder's (normal around 1500, σ 350) and waits spread over the
window's whole curve, so some meet at once, some only at the cap, some never. Each case
is timed several times on the same tickets; the median and the worst are printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from games.registry import SPIT
from services.common.identity import Player, PlayerId
from services.matchmaking.pairing import pair
from services.matchmaking.tickets import QueueKey, Ticket
from services.matchmaking.window import NS_PER_S, Window

NOW_NS = 3_600 * NS_PER_S
QUEUE = QueueKey(SPIT, rated=True)


def tickets(count: int, waits_s: tuple[float, float], seed: int) -> list[Ticket]:
    """Return ``count`` tickets of different players who waited within ``waits_s``."""
    rng = random.Random(seed)
    line = []
    for order in range(1, count + 1):
        player = Player(PlayerId(f"p{order}"), f"Player {order}")
        rating = min(3000.0, max(600.0, rng.gauss(1500, 350)))
        waited_ns = int(rng.uniform(*waits_s) * NS_PER_S)
        line.append(Ticket(order, player, QUEUE, NOW_NS - waited_ns, rating))
    return line


def time_pairing(line: list[Ticket], rounds: int) -> tuple[list[float], int]:
    """Return the milliseconds each of ``rounds`` pairings took, and how many pairs."""
    samples, made = [], 0
    for _ in range(rounds):
        started = time.perf_counter_ns()
        made = len(pair(line, NOW_NS))
        samples.append((time.perf_counter_ns() - started) / 1e6)
    return samples, made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tickets", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    cap_s = Window().seconds_to_cap()
    cases = {
        "all just arrived (±50)": (0.0, 0.0),
        f"waits spread 0–{cap_s:.0f} s": (0.0, cap_s),
        "all past the cap (±500)": (cap_s, 10 * cap_s),
    }
    for name, waits_s in cases.items():
        line = tickets(args.tickets, waits_s, seed=7)
        samples, made = time_pairing(line, args.rounds)
        print(
            f"pairing {args.tickets} tickets, {name:24}: {made:5d} pairs, "
            f"median {statistics.median(samples):7.1f} ms, worst {max(samples):7.1f} ms"
        )


if __name__ == "__main__":
    main()
