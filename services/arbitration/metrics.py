"""What the arbitration exports for the ops dashboard: faults, voids, lateness, load."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

from services.common.metrics import LATENCY_BUCKETS_S

TIMING_FAULTS = Counter(
    "pf_timing_faults_total", "Intervals of untrustworthy time, by kind", ["kind"]
)
VOIDS = Counter("pf_voids_total", "Matches voided with no rating result, by reason", ["reason"])
TIMER_LATENESS = Histogram(
    "pf_deadline_timer_lateness_seconds",
    "How long after a deadline the server's flag was judged",
    buckets=LATENCY_BUCKETS_S,
)
FORWARDING_DELAY = Histogram(
    "pf_forwarding_delay_seconds",
    "From the gateway's receipt of a command to the arbitration's arrival stamp",
    buckets=LATENCY_BUCKETS_S,
)
LIVE_MATCHES = Gauge("pf_live_matches", "Matches this arbitration instance is running")
COMMANDS = Counter("pf_commands_total", "Commands judged, by result", ["result"])
