"""Arena tournament pairing: a 256-player tournament simulated against the real pairing code.

Run with ``make bench`` (or ``python -m bench.arena``). In-process, no services: the
director's pure steps (standings, idle players, recent opponents, pairs) run every
simulated pairing round, as services/tournaments/director.py runs them, on a simulated
clock; games last a random time and end by a coin weighted by hidden strengths. Printed:

- the time one pairing round takes to compute (wall clock, p50/p99/max);
- the pairing latency, from a player becoming idle to being paired, p50/p99, in
  simulated seconds: the wait for the next round plus that round's compute time. With a
  round every second it is at most about a second, unless an odd player out waits on.
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
import time

from services.common.identity import PlayerId
from services.tournaments.lineup import idle_players, recent_opponents
from services.tournaments.model import Entrant, GameStatus, TournamentGame
from services.tournaments.pairing import pair
from services.tournaments.standings import rank


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def simulate(
    players: int, minutes: float, round_s: float, game_s: float, seed: int
) -> tuple[list[float], list[float], int]:
    """Return (round compute seconds, idle→paired seconds, games played)."""
    rng = random.Random(seed)
    strength = {PlayerId(f"p{n:03d}"): rng.gauss(0, 1) for n in range(players)}
    entrants = [Entrant(p, p, 0) for p in strength]
    games: dict[str, TournamentGame] = {}
    ending: list[tuple[int, str]] = []  # (end ms, match id), a heap
    rounds: list[float] = []
    waits: list[float] = []
    end_ms = int(minutes * 60_000)
    now_ms = 0
    while now_ms < end_ms:
        while ending and ending[0][0] <= now_ms:
            at_ms, match_id = heapq.heappop(ending)
            game = games[match_id]
            a, b = game.players
            edge = strength[a] - strength[b]
            winner = 0 if rng.random() < 1 / (1 + 10 ** (-edge / 2)) else 1
            games[match_id] = TournamentGame(
                match_id, game.players, game.paired_at_ms, GameStatus.FINISHED, winner, at_ms
            )
        started = time.perf_counter()
        history = list(games.values())
        idle = idle_players(entrants, history, rank(entrants, history))
        pairs = pair(idle, recent_opponents(history))
        compute_s = time.perf_counter() - started
        rounds.append(compute_s)
        since = {i.player_id: i.idle_since_ms for i in idle}
        for high, low in pairs:
            match_id = f"m{len(games):06d}"
            games[match_id] = TournamentGame(match_id, (high, low), now_ms)
            length_ms = int(rng.uniform(0.5, 1.5) * game_s * 1000)
            heapq.heappush(ending, (now_ms + length_ms, match_id))
            waits.extend((now_ms - since[p]) / 1000 + compute_s for p in (high, low))
        now_ms += int(round_s * 1000)
    return rounds, waits, len(games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--minutes", type=float, default=20.0, help="simulated length")
    parser.add_argument("--round-s", type=float, default=1.0, help="pairing interval")
    parser.add_argument("--game-s", type=float, default=60.0, help="mean game length")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rounds, waits, played = simulate(
        args.players, args.minutes, args.round_s, args.game_s, args.seed
    )
    ms = [r * 1000 for r in rounds]
    print(
        f"arena pairing, {args.players} players, {args.minutes:g} simulated min, a round every"
        f" {args.round_s:g} s, games ~{args.game_s:g} s: {played} games, {len(rounds)} rounds"
    )
    print(
        f"  round compute: p50 {statistics.median(ms):.2f} ms, p99 {percentile(ms, 0.99):.2f}"
        f" ms, max {max(ms):.2f} ms"
    )
    print(
        f"  idle → paired: p50 {statistics.median(waits):.3f} s, p99"
        f" {percentile(waits, 0.99):.3f} s (simulated clock, {len(waits)} pairings)"
    )


if __name__ == "__main__":
    main()
