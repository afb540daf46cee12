"""The event loop's lag, sampled beside each service's /metrics as the service asks."""

from __future__ import annotations

import asyncio

import pytest
from prometheus_client import REGISTRY

from services.common.metrics import (
    LAG_SAMPLE_INTERVAL_S,
    OFF_PATH_LAG_SAMPLE_INTERVAL_S,
    metrics_server,
)
from tests.waiting import poll_until

SAMPLES = "pf_event_loop_lag_seconds_count"
# Several of the default interval's ticks come by in this long, and none of a second's.
WINDOW_S = 3.5 * LAG_SAMPLE_INTERVAL_S


def samples() -> float:
    return REGISTRY.get_sample_value(SAMPLES) or 0.0


async def test_the_lag_is_sampled_while_the_metrics_are_served() -> None:
    before = samples()
    async with metrics_server("127.0.0.1", 0, lag_every_s=0.01):
        await poll_until("ten samples of the loop's lag", lambda: samples() >= before + 10)


@pytest.mark.parametrize(
    "lag_every_s", [OFF_PATH_LAG_SAMPLE_INTERVAL_S, None], ids=["off-path", "its-own"]
)
async def test_a_service_off_a_commands_way_or_sampling_its_own_lag_is_not_sampled_often(
    lag_every_s: float | None,
) -> None:
    async with metrics_server("127.0.0.1", 0, lag_every_s=lag_every_s):
        before = samples()
        await asyncio.sleep(WINDOW_S)
        assert samples() == before
