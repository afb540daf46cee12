"""What the gRPC-web edge measures: each forwarded unary call's time, by method and status."""

from __future__ import annotations

from prometheus_client import Gauge, Histogram

from services.common.metrics import LATENCY_BUCKETS_S

# Submit's series is the command latency players feel, minus the network: the SLO's source.
UNARY_SECONDS = Histogram(
    "pf_gateway_unary_seconds",
    "From forwarding a unary call to its backend to having the reply, by method and status",
    ["method", "code"],
    buckets=LATENCY_BUCKETS_S,
)
# Watch's series is the players following a match right now.
OPEN_STREAMS = Gauge(
    "pf_gateway_open_streams",
    "Server streams open between the gateway and browsers or terminals, by method",
    ["method"],
)
