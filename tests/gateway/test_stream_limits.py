"""Open match streams per player and per address: refused past the limit, room once closed."""

from __future__ import annotations

import contextlib

import pytest

from services.common.rejection import Rejection
from services.gateway.stream_limits import StreamLimits


def test_a_player_past_the_limit_is_refused_until_a_stream_closes() -> None:
    limits = StreamLimits(per_player=2, per_address=100)
    with contextlib.ExitStack() as open_streams:
        open_streams.enter_context(limits.held("p", "10.0.0.1"))
        with limits.held("p", "10.0.0.1"):
            with pytest.raises(Rejection) as over, limits.held("p", "10.0.0.2"):
                pass
            assert over.value.reason == "too_many_streams"
        with limits.held("p", "10.0.0.1"):  # one closed: room again
            pass


def test_an_address_past_its_limit_is_refused_but_this_machine_is_not() -> None:
    limits = StreamLimits(per_player=10, per_address=2)
    with limits.held("a", "10.0.0.1"), limits.held("b", "10.0.0.1"):
        with pytest.raises(Rejection), limits.held("c", "10.0.0.1"):
            pass
        with limits.held("c", "10.0.0.9"):  # another address
            pass
    with contextlib.ExitStack() as many:
        for n in range(5):
            many.enter_context(limits.held(f"bot {n}", "127.0.0.1"))
