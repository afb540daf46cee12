"""Engine speed: commands applied per second and the per-command median and p99.

Run with ``make bench``. Bot-vs-bot matches are recorded first (bots' thinking is not
timed), then each log is replayed and every ``apply`` call is timed on its own, as the
arbitration would call it.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench.drive import Log, drive
from bench.stack.procstat import percentile
from games.bid.selfplay import play_match
from games.bot import Level
from games.registry import GAMES, Game


def record(game: Game, matches: int) -> list[Log]:
    """Return the logs of ``matches`` hard-vs-medium bot matches."""
    return [
        drive(game.engine, game.bots, game.options, seed, (Level.HARD, Level.MEDIUM))
        for seed in range(matches)
    ]


def time_applies(game: Game, logs: list[Log]) -> list[int]:
    """Return the nanoseconds each ``apply`` of every log took."""
    samples: list[int] = []
    clock = time.perf_counter_ns
    for log in logs:
        state = game.engine.new_match(log.options, log.seed)
        for seat, command in log.commands:
            started = clock()
            state = game.engine.apply(state, seat, command).state
            samples.append(clock() - started)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=60, help="bot matches per game")
    args = parser.parse_args()
    for game in GAMES:
        name = game.name
        logs = record(game, args.matches)
        samples: list[float] = sorted(time_applies(game, logs))
        total_s = sum(samples) / 1e9
        print(
            f"{name:5} {len(samples):7d} commands from {len(logs)} matches: "
            f"{len(samples) / total_s:9.0f} commands/s, "
            f"median {statistics.median(samples) / 1000:6.1f} µs, "
            f"p99 {percentile(samples, 0.99) / 1000:6.1f} µs"
        )
    for levels in (
        (Level.EASY, Level.EASY),
        (Level.MEDIUM, Level.MEDIUM),
        (Level.HARD, Level.MEDIUM),
    ):
        print(bid_rounds_per_second(args.matches, levels))


def bid_rounds_per_second(matches: int, levels: tuple[Level, Level]) -> str:
    """Return how many complete bot-vs-bot Bid rounds one core plays per second."""
    rounds = commands = 0
    started = time.perf_counter()
    for seed in range(matches):
        record = play_match(levels[0], levels[1], seed)
        rounds += record.rounds
        commands += record.commands
    elapsed = time.perf_counter() - started
    return (
        f"bid   {levels[0].value} vs {levels[1].value}: {rounds} complete rounds ({commands} "
        f"commands, bots' choices included) in {elapsed:.2f} s: {rounds / elapsed:.0f} rounds/s"
    )


if __name__ == "__main__":
    main()
