"""The server's clock decides a Bid match, and the result is counted exactly once.

A short match clock (bank 1.2 s, grace 0.3 s) keeps the test quick; the rules are the
same at 120 s + 10 s.
"""

from __future__ import annotations

import signal
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import nats
import pytest
import pytest_asyncio

from clients.grpcweb import CallError
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.stack.stack import Stack, StackConfig, run_stack
from tests.e2e.support import Seated, challenge, is_over, metric, next_update, player, until
from tests.waiting import poll_until
from wire import subjects

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
DRAW = game_pb2.Command(bid=bid_pb2.BidCommand(draw=bid_pb2.BidDraw()))
SHORT_CLOCK = (("PF_BANK_MS", "1200"), ("PF_GRACE_MS", "300"))
# Ratings' ack_wait (10 s) and more: an unacked result comes back, and is handled, within it.
REDELIVERY_TIMEOUT_S = 40.0


async def flagged_match(
    stack: Stack, http: aiohttp.ClientSession, names: tuple[str, str]
) -> tuple[Seated, Seated, arbitration_pb2.MatchUpdate]:
    """Play a rated Bid match in which the first player to decide never moves."""
    a, b = await player(http, stack, names[0]), await player(http, stack, names[1])
    first, second = await challenge(a, b, game_pb2.GAME_BID, rated=True)
    updates = first.client.watch(first.match_id, first.seat)
    await next_update(updates)
    await first.submit(READY)
    await second.submit(READY)
    final = await until(updates, is_over)
    return first, second, final


async def ladder_games(seated: Seated) -> dict[str, int]:
    ladder = await seated.client.ladder(game_pb2.GAME_BID)
    return {entry.player_id: entry.games for entry in ladder.entries}


async def wait_for_ladder(seated: Seated, players: set[str]) -> dict[str, int]:
    """Return the ladder's games by player once every one of ``players`` is on it."""

    async def listed() -> dict[str, int] | None:
        games = await ladder_games(seated)
        return games if players <= games.keys() else None

    return await poll_until(f"{players} on the ladder", listed)


async def wait_for_every_result_acked(stack: Stack) -> None:
    """Return once ratings has acked every result on the stream: none is left undelivered
    or delivered and unacked, so no redelivery can come after this."""
    nc = await nats.connect(stack.nats_url)
    js = nc.jetstream()

    async def drained() -> bool:
        info = await js.consumer_info(subjects.RESULTS_STREAM, subjects.RATINGS_CONSUMER)
        return bool(info.num_pending == 0 and info.num_ack_pending == 0)

    try:
        await poll_until("ratings acks every result", drained, REDELIVERY_TIMEOUT_S)
    finally:
        await nc.close()


@pytest_asyncio.fixture
async def short_clock(tmp_path: Path) -> AsyncIterator[tuple[Stack, aiohttp.ClientSession]]:
    config = StackConfig(tmp_path, with_bots=False, extra_env=SHORT_CLOCK)
    async with run_stack(config) as stack, aiohttp.ClientSession() as http:
        yield stack, http


async def test_a_silent_player_loses_on_time_and_a_late_command_changes_nothing(
    short_clock: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = short_clock
    first, second, final = await flagged_match(stack, http, ("Slow", "Steady"))
    assert final.status == arbitration_pb2.STATUS_FINISHED
    assert final.outcome.termination == game_pb2.TERMINATION_TIME
    loser = 1 - final.outcome.winner
    late = first if first.seat == loser else second
    with pytest.raises(CallError) as refused:
        await late.submit(DRAW)
    assert refused.value.reason in {"match_over", "too_late"}
    again = await anext(late.client.watch(late.match_id, late.seat))
    assert again.outcome == final.outcome
    assert again.seq == final.seq


async def test_a_rated_result_counts_once_however_often_it_is_published(
    short_clock: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = short_clock
    first, second, _ = await flagged_match(stack, http, ("Ann", "Bob"))
    ids = {first.client.player_id, second.client.player_id}
    assert await wait_for_ladder(first, ids) == dict.fromkeys(ids, 1)
    nc = await nats.connect(stack.nats_url)
    js = nc.jetstream()
    stored = await js.get_last_msg(subjects.RESULTS_STREAM, subjects.RESULTS_FINISHED)
    result = events_pb2.MatchFinished.FromString(stored.data or b"")
    assert result.match_id == first.match_id
    again = await js.publish(
        subjects.RESULTS_FINISHED,
        stored.data or b"",
        headers={"Nats-Msg-Id": result.match_id},
    )
    assert again.duplicate  # JetStream's window drops it
    # Past the window a copy gets through the stream; the store still counts it once.
    await js.publish(
        subjects.RESULTS_FINISHED,
        stored.data or b"",
        headers={"Nats-Msg-Id": result.match_id + "/resent"},
    )
    await nc.close()

    async def duplicates() -> dict[str, float] | None:
        counted = await metric(http, stack, "ratings", "pf_ratings_duplicates_total")
        return counted if any(counted.values()) else None

    # Ratings holds the copy's match already: it counts the copy as a duplicate, once.
    assert await poll_until("ratings handles the resent copy", duplicates) == {"": 1.0}
    assert await ladder_games(first) == dict.fromkeys(ids, 1)


async def test_a_result_finished_while_ratings_is_down_is_counted_once_after_restart(
    short_clock: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = short_clock
    await stack.stop("ratings", signal.SIGKILL)
    first, second, _ = await flagged_match(stack, http, ("Cy", "Di"))
    await stack.start_again("ratings")
    ids = {first.client.player_id, second.client.player_id}
    assert await wait_for_ladder(first, ids) == dict.fromkeys(ids, 1)
    await stack.restart("ratings", signal.SIGKILL)
    # Killed between a commit and its ack, ratings gets that result again after ack_wait;
    # once nothing is left unacked, nothing more can come.
    await wait_for_every_result_acked(stack)
    assert await ladder_games(first) == dict.fromkeys(ids, 1)
