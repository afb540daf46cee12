"""The match log's growth through the real stack: the stream has its limits and retention,
and one seat flooding a match with refused commands leaves its log bounded and replayable.

The edge's command rate is raised (``FAST_PLAY_ENV``) so that the flood passes the seat's
bound within seconds; at the edge's own rate the same flood takes minutes, and is the
same to the log.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter

import aiohttp
import nats
import pytest
from nats.js import api

from clients.grpcweb import CallError
from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import bid_pb2, game_pb2, spit_pb2
from services.arbitration.matchlog import bounds
from services.stack.stack import Stack
from tests.e2e.support import Seated, challenge, player
from tests.e2e.test_match_log import (
    SPIT_READY,
    latest,
    move_on,
    race_on_one_pile,
    replay_tool,
    spit,
)
from tests.pace import FAST_PLAY_ENV
from tools.replay import replay
from wire.subjects import LOG_STREAM

pytestmark = pytest.mark.asyncio(loop_scope="module")

SPIT_RESIGN = game_pb2.Command(spit=spit_pb2.SpitCommand(resign=spit_pb2.SpitResign()))
PAST_THE_BOUND = 100  # lost races the flood sends past what the seat's log keeps
POSITIONS = 300  # positions to look through for a race


STACK_ENV = (*FAST_PLAY_ENV, ("PF_SPIT_PAUSE_MS", "100"))


async def test_the_arbitration_declares_the_log_stream_with_its_limits(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, _ = arena
    connection = await nats.connect(stack.nats_url)
    config = (await connection.jetstream().stream_info(LOG_STREAM)).config
    await connection.close()
    assert (config.max_age, config.max_bytes) == (90 * 86400.0, 4 << 30)
    assert config.max_msgs_per_subject == 20_000
    assert config.discard == api.DiscardPolicy.OLD


async def lost_race(first: Seated, second: Seated) -> game_pb2.Command:
    """Return a play of ``second``'s that lost a race to one of ``first``'s."""
    for _ in range(POSITIONS):
        update = await latest(first)
        view = update.view.spit
        plays = None if view.must_press else race_on_one_pile(view, (first.seat, second.seat))
        if plays is None:
            # A refusal means the position moved under us (a spit, a round's end): look again.
            with contextlib.suppress(CallError):
                await move_on(update, (first, second))
            continue
        with contextlib.suppress(CallError):
            await first.submit(spit(plays[0]))
        try:
            await second.submit(spit(plays[1]))
        except CallError as lost:
            if lost.reason == "pile_top_changed":
                return spit(plays[1])
    raise AssertionError(f"no race in {POSITIONS} positions")


async def test_a_flood_of_lost_races_leaves_the_log_bounded_and_the_replay_identical(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    calm, flooder = await player(http, stack, "Calm"), await player(http, stack, "Flood")
    first, second = await challenge(calm, flooder, game_pb2.GAME_SPIT, rated=False)
    await first.submit(SPIT_READY)
    await second.submit(SPIT_READY)
    losing = await lost_race(first, second)
    kept = bounds.REFUSALS_LOGGED_PER_SEAT + bounds.RACES_LOGGED_PER_SEAT
    flood_from = flooder.next_client_seq()  # the flood's commands are numbered from here
    reasons: Counter[str] = Counter()
    for _ in range(kept + PAST_THE_BOUND):
        try:
            await second.submit(losing)
        except CallError as lost:
            reasons[lost.reason] += 1
    assert reasons == Counter(pile_top_changed=kept + PAST_THE_BOUND), reasons
    padded = bid_pb2.BidPlay(tile=bid_pb2.Tile(low=1, high=2, text="x" * 60_000))
    with pytest.raises(CallError) as too_large:
        await second.submit(game_pb2.Command(bid=bid_pb2.BidCommand(play=padded)))
    assert (too_large.value.code, too_large.value.reason) == (3, "bad_command")
    await second.submit(SPIT_RESIGN)

    log = await calm.match_log(first.match_id)
    refused = [e for e in log.entries if e.kind == log_pb2.ENTRY_KIND_REFUSED]
    mine = [e for e in refused if e.seat == second.seat]
    assert len(mine) == kept
    before = sum(1 for e in mine if e.client_seq < flood_from)  # the race found, and any other
    assert all(e.HasField("race") for e in mine if e.client_seq > flood_from)
    assert max(e.ByteSize() for e in log.entries) < 1024  # the 60 KB command is nowhere
    end = log.entries[-1]
    assert end.kind == log_pb2.ENTRY_KIND_FINISHED
    assert end.refusals_not_logged[second.seat] == before + PAST_THE_BOUND
    assert replay(list(log.entries)).identical
    code, out = await asyncio.wait_for(replay_tool(stack, first.match_id), 60)
    assert code == 0 and "identical" in out, out
