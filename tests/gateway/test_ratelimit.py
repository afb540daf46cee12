"""The command rate per player: a flood is refused with a retry hint; a person is not."""

from __future__ import annotations

from collections.abc import Awaitable

import grpc
import pytest

from photofinish.client.v1 import arena_pb2
from services.common.identity import CLIENT_ADDRESS
from services.common.rejection import Rejection
from services.gateway.grpcweb import RequestRefused
from services.gateway.own_methods import OwnMethods
from services.gateway.ratelimit import CommandRate, sign_in_rate
from services.gateway.stream_limits import StreamLimits
from wire.grpcweb.status import Code


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


async def test_sign_ins_are_held_per_address_except_the_unlimited_ones() -> None:
    arena = OwnMethods(
        b"k" * 32,
        followed=None,  # type: ignore[arg-type]  # sign-in needs no NATS, no arbitration
        arbitration=None,  # type: ignore[arg-type]
        submits=None,  # type: ignore[arg-type]
        streams=StreamLimits(unlimited=frozenset({"127.0.0.1"})),
        sign_ins=sign_in_rate(per_minute=3),
    )
    request = arena_pb2.SignInRequest(display_name="Guest")

    def sign_in(address: str) -> Awaitable[bytes]:
        return arena.sign_in(request, ((CLIENT_ADDRESS, address),))

    for _ in range(3):
        await sign_in("203.0.113.7")
    with pytest.raises(RequestRefused) as over:
        await sign_in("203.0.113.7")
    assert over.value.status.code == Code.RESOURCE_EXHAUSTED
    assert over.value.status.message.startswith("rate_limited: more than 0.05 sign-ins a second")
    await sign_in("203.0.113.8")  # another address
    for _ in range(10):
        await sign_in("127.0.0.1")  # this machine: the bot pool signs in for every match
