"""The event loop's lag, sampled beside each service's /metrics as the service asks."""

from __future__ import annotations

import asyncio

from prometheus_client import REGISTRY

from services.common.metrics import metrics_server
from tests.waiting import poll_until

SAMPLES = "pf_event_loop_lag_seconds_count"


def samples() -> float:
    return REGISTRY.get_sample_value(SAMPLES) or 0.0


async def test_the_lag_is_sampled_at_the_interval_the_service_asks() -> None:
    before = samples()
    async with metrics_server("127.0.0.1", 0, lag_every_s=0.01):
        await poll_until("ten samples of the loop's lag", lambda: samples() >= before + 10)


async def test_a_service_that_samples_its_own_lag_gets_no_sampler() -> None:
    async with metrics_server("127.0.0.1", 0, lag_every_s=None):
        before = samples()
        # Several of the default interval's ticks would have come by now.
        await asyncio.sleep(0.35)
        assert samples() == before
