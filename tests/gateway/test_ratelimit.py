"""The command rate per player: a flood is refused with a retry hint; a person is not."""

from __future__ import annotations

import grpc
import pytest

from services.common.rejection import Rejection
from services.gateway.ratelimit import CommandRate


class Clock:
    def __init__(self) -> None:
        self.s = 100.0

    def __call__(self) -> float:
        return self.s


def test_a_flood_meets_the_limit_with_a_retry_hint_and_the_bucket_refills() -> None:
    clock = Clock()
    rate = CommandRate(per_s=10, burst=20, now=clock)
    for _ in range(20):
        rate.check("flooder")
    with pytest.raises(Rejection) as over:
        rate.check("flooder")
    assert (over.value.code, over.value.reason) == (
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "rate_limited",
    )
    assert over.value.metadata["retry_after_ms"] == "100"
    rate.check("someone else")  # each player has a bucket of their own
    clock.s += 0.1
    rate.check("flooder")  # one command's worth came back


def test_spit_at_the_hard_computers_pace_in_two_tabs_and_a_reload_never_meets_it() -> None:
    clock = Clock()
    rate = CommandRate(now=clock)  # the defaults
    think_s = 0.38  # the hard computer's median think time: faster than a person
    for step in range(600):  # about four minutes of play
        clock.s += think_s
        rate.check("player")  # the tab that plays
        rate.check("player")  # the second tab, as fast
        if step == 300:  # a reload resends what was unanswered
            for _ in range(5):
                rate.check("player")
