"""Calls made in one event-loop turn travel together, in order; each caller gets its answer."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import pytest

from services.common.batching import Batcher, Then


class Peer:
    """Answers each batch with the calls doubled, a turn later, and keeps the batches."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []

    def send(self, calls: list[int], then: Then[int]) -> None:
        self.batches.append(list(calls))
        asyncio.get_running_loop().call_soon(then, [2 * call for call in calls])


async def test_calls_made_in_one_turn_leave_as_one_batch_in_order() -> None:
    peer = Peer()
    batcher = Batcher(peer.send)
    answers = await asyncio.gather(*(batcher.call(n) for n in (3, 1, 2)))
    assert answers == [6, 2, 4]
    assert peer.batches == [[3, 1, 2]]


async def test_calls_of_later_turns_go_in_later_batches() -> None:
    peer = Peer()
    batcher = Batcher(peer.send)
    assert await batcher.call(1) == 2
    assert await batcher.call(5) == 10
    assert peer.batches == [[1], [5]]


async def test_a_full_batch_leaves_before_its_turn_ends() -> None:
    peer = Peer()
    batcher = Batcher(peer.send, max_batch=2)
    answers = await asyncio.gather(*(batcher.call(n) for n in range(5)))
    assert answers == [0, 2, 4, 6, 8]
    assert peer.batches == [[0, 1], [2, 3], [4]]


@pytest.mark.parametrize("raises", [True, False])
async def test_a_failed_send_is_every_callers_answer(raises: bool) -> None:
    def unreachable(calls: list[int], then: Then[int]) -> None:
        if raises:
            raise ConnectionError("peer gone")
        asyncio.get_running_loop().call_soon(then, ConnectionError("peer gone"))

    batcher: Batcher[int, int] = Batcher(unreachable)
    first, second = batcher.call(1), batcher.call(2)
    for answer in (first, second):
        with pytest.raises(ConnectionError, match="peer gone"):
            await answer
    await batcher.close()


async def test_a_peer_that_answers_the_wrong_number_of_calls_fails_them_all() -> None:
    def short(calls: list[int], then: Then[int]) -> None:
        answers: Sequence[int] = calls[:1]
        asyncio.get_running_loop().call_soon(then, answers)

    batcher: Batcher[int, int] = Batcher(short)
    answers = [batcher.call(1), batcher.call(2)]
    for answer in answers:
        with pytest.raises(ValueError, match="1 answers to 2 calls"):
            await answer


async def test_closing_waits_for_the_answers_in_flight() -> None:
    peer = Peer()
    batcher = Batcher(peer.send)
    answer = batcher.call(4)
    await asyncio.sleep(0)  # sent at the end of the turn; its answer a turn later
    await batcher.close()
    assert answer.done() and answer.result() == 8


class Holder:
    """Keeps each batch's ``then`` so the test answers it, in parts, when it chooses."""

    def __init__(self) -> None:
        self.thens: list[Then[str]] = []

    def send(self, calls: list[int], then: Then[str]) -> None:
        self.thens.append(then)


async def test_answers_one_by_one_reach_their_callers_in_the_read_that_brings_them() -> None:
    holder = Holder()
    batcher: Batcher[int, str] = Batcher(holder.send)
    heard: list[tuple[int, str | BaseException]] = []

    def hear(n: int) -> Callable[[str | BaseException], None]:
        return lambda outcome: heard.append((n, outcome))

    for n in range(3):
        batcher.add(n, hear(n))
    await asyncio.sleep(0)  # the turn ends: one batch sent
    (then,) = holder.thens
    assert then({2: "two"}) is False  # heard at once, not a turn later
    assert heard == [(2, "two")]
    assert then({2: "again", 0: "zero"}) is False  # a repeat is not heard twice
    refused = PermissionError("not your seat")
    assert then({1: refused}) is True  # the last one: the batch is answered
    assert heard == [(2, "two"), (0, "zero"), (1, refused)]
    await batcher.close()  # nothing in flight any more


async def test_an_error_after_some_answers_answers_only_the_calls_still_waiting() -> None:
    holder = Holder()
    batcher: Batcher[int, str] = Batcher(holder.send)
    first, second = batcher.call(1), batcher.call(2)
    await asyncio.sleep(0)
    (then,) = holder.thens
    assert then({0: "one"}) is False
    assert then(TimeoutError("no answer within 10 s")) is True
    assert await first == "one"
    with pytest.raises(TimeoutError, match="no answer"):
        await second
