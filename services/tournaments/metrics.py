"""The tournaments service's Prometheus metrics."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

PAIRING_WAIT = Histogram(
    "pf_tournament_pairing_wait_seconds",
    "From a player becoming idle in a live tournament to their next pairing",
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0),
)
PAIRING_ROUND = Histogram(
    "pf_tournament_pairing_round_seconds",
    "Computing one pairing round (standings, idle players, pairs), without opening matches",
    buckets=(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1),
)
GAMES_OPENED = Counter("pf_tournament_games_opened_total", "Tournament matches opened")
OPEN_FAILURES = Counter(
    "pf_tournament_open_failures_total", "Tournament pairings whose match arbitration did not open"
)
RESULTS = Counter(
    "pf_tournament_results_total", "Results of tournament games recorded, by kind", ["kind"]
)
