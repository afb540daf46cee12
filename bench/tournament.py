"""Computer opponents against each other: does hard beat easy, and by how much?

Run with ``make tournament`` (or ``python -m bench.tournament --games 400``). Seats
alternate so neither level profits from sitting first. Spit games run in simulated time
with each level's reaction times; Bid matches are played out decision by decision.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from games.bid import selfplay as bid_selfplay
from games.bot import Level
from games.seats import Seat
from games.spit import selfplay as spit_selfplay


def spit_winner(first: Level, second: Level, seed: int) -> Seat | None:
    outcome, _ = spit_selfplay.play_match(first, second, seed)
    return None if outcome is None else outcome.winner


def bid_winner(first: Level, second: Level, seed: int) -> Seat | None:
    return bid_selfplay.play_match(first, second, seed).outcome.winner


def duel(game: str, strong: Level, weak: Level, games: int) -> str:
    """Return a report line of ``games`` games between ``strong`` and ``weak``."""
    play = spit_winner if game == "spit" else bid_winner
    tally: Counter[str] = Counter()
    started = time.perf_counter()
    for seed in range(games):
        strong_seat = Seat(seed % 2)
        levels = (strong, weak) if strong_seat == 0 else (weak, strong)
        winner = play(levels[0], levels[1], seed)
        tally[
            "unfinished" if winner is None else "strong" if winner == strong_seat else "weak"
        ] += 1
    elapsed = time.perf_counter() - started
    share = 100 * tally["strong"] / games
    return (
        f"{game:4} {strong.value:>6} vs {weak.value:<6} {games:4d} games: "
        f"{tally['strong']:4d}–{tally['weak']:<4d} ({share:5.1f}% to {strong.value}), "
        f"{tally['unfinished']} unfinished, {elapsed:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    args = parser.parse_args()
    for game in ("spit", "bid"):
        for strong, weak in (
            (Level.HARD, Level.EASY),
            (Level.HARD, Level.MEDIUM),
            (Level.MEDIUM, Level.EASY),
        ):
            print(duel(game, strong, weak, args.games), flush=True)


if __name__ == "__main__":
    main()
