"""What matchmaking exports at ``/metrics``: queue lengths, waits, open challenges, matches."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

QUEUE_LENGTH = Gauge(
    "pf_matchmaking_queue_length",
    "Tickets waiting to be paired, per queue",
    ["game", "rated"],
)

# From joining a queue to being paired (outcome="paired") or leaving unpaired
# (outcome="left": cancelled, stream closed or replaced). People wait seconds to minutes.
WAIT_SECONDS = Histogram(
    "pf_matchmaking_wait_seconds",
    "How long a ticket waited in its queue",
    ["game", "rated", "outcome"],
    buckets=(0.1, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600),
)

OPEN_CHALLENGES = Gauge(
    "pf_matchmaking_open_challenges",
    "Challenge codes currently waiting for someone to accept them",
)

MATCHES_CREATED = Counter(
    "pf_matchmaking_matches_created_total",
    "Matches arbitration opened at matchmaking's request, per mode",
    ["mode"],
)

OPEN_FAILURES = Counter(
    "pf_matchmaking_open_failures_total",
    "Matches not opened because a service did not answer, per reason",
    ["reason"],
)

# A queued player's rating could not be read from ratings (by gRPC status code), so they
# were queued at the newcomer's 1500. Steady growth means ratings is down or too slow.
RATING_FALLBACKS = Counter(
    "pf_matchmaking_rating_fallbacks_total",
    "Tickets queued at 1500 because ratings did not answer, per gRPC code",
    ["code"],
)

# Bot pools holding their stream open; at 0 nobody can play the computer (no_bot_pool).
BOT_POOLS = Gauge(
    "pf_matchmaking_bot_pools",
    "Bot pools connected to matchmaking (BotPools.Serve streams open)",
)
