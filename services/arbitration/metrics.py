"""What the arbitration exports for the ops dashboard: faults, voids, lateness, load."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

from services.common.metrics import LATENCY_BUCKETS_S

TIMING_FAULTS = Counter(
    "pf_timing_faults_total", "Intervals of untrustworthy time, by kind", ["kind"]
)
VOIDS = Counter("pf_voids_total", "Matches voided with no rating result, by reason", ["reason"])
# Finer than the latency buckets where the targets sit: lateness p99 ≤ 2 ms.
FINE_BUCKETS_S = (
    0.00005,
    0.0001,
    0.0002,
    0.0003,
    0.0005,
    0.00075,
    0.001,
    0.0015,
    0.002,
    0.003,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    1.0,
)
TIMER_LATENESS = Histogram(
    "pf_deadline_timer_lateness_seconds",
    "How long after its due time a server timer (a flag, a gate lifting, a spit) was judged",
    buckets=FINE_BUCKETS_S,
)
FORWARDING_DELAY = Histogram(
    "pf_forwarding_delay_seconds",
    "From the gateway's receipt of a command to the arbitration's arrival stamp",
    buckets=LATENCY_BUCKETS_S,
)
LIVE_MATCHES = Gauge(
    "pf_live_matches", "Matches in play on this arbitration instance (finished ones not counted)"
)
COMMANDS = Counter("pf_commands_total", "Commands judged, by result", ["result"])
ACCEPTED = COMMANDS.labels("accepted")  # the children every command counts on, found once
REFUSED = COMMANDS.labels("refused")

REFUSALS_NOT_LOGGED = Counter(
    "pf_refusals_not_logged",
    "Refused commands answered but not stored: their seat had as many as its log keeps",
)
# A player's command stored to be judged whose answer did not come from the log in time
# ("timeout": the holder is gone, or the log does not feed the rules) or was "not_held"
# (the holder lost the match): the rules were asked directly (docs/arbitration-log.md).
ASKED_DIRECTLY = Counter(
    "pf_stored_commands_asked_directly_total",
    "Commands stored to be judged whose answer did not come from the log, asked directly",
    ["why"],
)
