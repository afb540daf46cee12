"""Calls made in one event-loop turn travel together, in order; each caller gets its answer."""

from __future__ import annotations

import asyncio

import pytest

from wire.batching import Batcher, Coalescer


class Peer:
    """Answers each batch with the calls doubled, and keeps the batches it was sent."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []

    async def send(self, calls: list[int]) -> list[int]:
        self.batches.append(list(calls))
        await asyncio.sleep(0)
        return [2 * call for call in calls]


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


async def test_a_failed_send_is_every_callers_answer() -> None:
    async def unreachable(calls: list[int]) -> list[int]:
        raise ConnectionError("peer gone")

    batcher: Batcher[int, int] = Batcher(unreachable)
    first, second = batcher.call(1), batcher.call(2)
    for answer in (first, second):
        with pytest.raises(ConnectionError, match="peer gone"):
            await answer


async def test_a_peer_that_answers_the_wrong_number_of_calls_fails_them_all() -> None:
    async def short(calls: list[int]) -> list[int]:
        return calls[:1]

    batcher: Batcher[int, int] = Batcher(short)
    answers = [batcher.call(1), batcher.call(2)]
    for answer in answers:
        with pytest.raises(ValueError, match="1 answers to 2 calls"):
            await answer


async def test_a_coalescer_sends_one_message_per_key_per_turn() -> None:
    sent: list[tuple[str, list[int]]] = []

    async def flush(key: str, items: list[int]) -> None:
        sent.append((key, items))

    coalescer: Coalescer[int] = Coalescer(flush)
    for key, item in (("a", 1), ("b", 2), ("a", 3)):
        coalescer.add(key, item)
    await asyncio.sleep(0)
    await coalescer.close()
    coalescer.add("a", 4)
    await asyncio.sleep(0)
    await coalescer.close()
    assert sent == [("a", [1, 3]), ("b", [2]), ("a", [4])]
