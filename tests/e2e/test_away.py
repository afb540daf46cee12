"""An opponent who leaves an online match: the present player claims the win, or aborts a
match the away player never moved in (no result, no rating); one who comes back within
the limit just resumes. Short limits keep it quick: away after 2 s unheard, the gateway
naming open streams every 0.3 s (the defaults are 30 s and 5 s)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable

import aiohttp
import pytest

from clients.grpcweb import CallError
from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.game.v1 import bid_pb2, game_pb2, spit_pb2
from services.stack.stack import Stack
from tests.e2e.support import Seated, challenge, first_end, next_update, player, until
from tests.waiting import poll_until
from tools.replay import replay

pytestmark = pytest.mark.asyncio(loop_scope="module")

STACK_ENV = (("PF_AWAY_S", "2"), ("PF_PRESENCE_EVERY_S", "0.3"), ("PF_GATE_TIMEOUT_S", "600"))
CLAIM = game_pb2.Command(claim=game_pb2.Claim())
SPIT_READY = game_pb2.Command(spit=spit_pb2.SpitCommand(ready=spit_pb2.SpitReady()))
BID_READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))


def away(seat: int) -> Callable[[arbitration_pb2.MatchUpdate], bool]:
    """Return a test of whether an update shows ``seat`` (alone) away."""
    return lambda update: list(update.away_seats) == [seat]


async def log_of(seated: Seated) -> log_pb2.MatchLog:
    return await seated.client.match_log(seated.match_id)


async def history_rated(seated: Seated, game: game_pb2.Game.ValueType) -> list[bool]:
    history = await seated.client.get_history(seated.client.player_id, game, 5)
    return [entry.rated for entry in history.entries if entry.match_id == seated.match_id]


async def test_a_match_the_away_player_never_moved_in_is_aborted_with_no_rating(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    ann = await player(http, stack, "Ann Away")
    ben = await player(http, stack, "Ben Gone")
    here, gone = await challenge(ann, ben, game_pb2.GAME_SPIT, rated=True)
    updates = here.client.watch(here.match_id, here.seat)  # Ann's stream stays open
    await next_update(updates)
    await here.submit(SPIT_READY)  # a press at the gate, not a move
    # Too early: Ben has not been away for the limit yet.
    with pytest.raises(CallError) as early:
        await here.submit(CLAIM)
    assert early.value.reason == "opponent_present"
    shown = await until(updates, away(gone.seat))
    assert shown.claim_aborts
    assert shown.status == arbitration_pb2.STATUS_LIVE
    await here.submit(CLAIM)
    final = await first_end(updates)
    assert final.status == arbitration_pb2.STATUS_VOIDED
    assert final.void_reason == f"aborted: {ben.name} left before making a move"
    log = await log_of(here)
    kinds = [entry.kind for entry in log.entries]
    assert log_pb2.ENTRY_KIND_AWAY in kinds
    assert kinds[-1] == log_pb2.ENTRY_KIND_VOIDED
    assert log.entries[-1].reason == "aborted"
    assert replay(log.entries).identical
    # The ratings record it as void: rated by neither player, no rating changed.
    for seated in (here, gone):
        rated = await poll_until(
            "the void reaches the ratings",
            functools.partial(_recorded, seated, game_pb2.GAME_SPIT),
        )
        assert rated == [False]
        rating = await seated.client.get_rating(seated.client.player_id, game_pb2.GAME_SPIT)
        assert rating.games == 0


async def _recorded(seated: Seated, game: game_pb2.Game.ValueType) -> list[bool] | None:
    found = await history_rated(seated, game)
    return found or None


async def test_a_player_whose_opponent_left_after_moving_claims_the_win(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    cat = await player(http, stack, "Cat Stays")
    dan = await player(http, stack, "Dan Leaves")
    first, second = await challenge(cat, dan, game_pb2.GAME_BID, rated=True)
    seats = {first.seat: first, second.seat: second}
    watching = first.client.watch(first.match_id, first.seat)
    update = await next_update(watching)
    await first.submit(BID_READY)
    await second.submit(BID_READY)
    update = await until(watching, lambda u: not u.decision.gate and u.decision.seats)
    await watching.aclose()
    mover = seats[update.decision.seats[0]]
    # The mover makes one legal move, then leaves; the other stays with a stream open,
    # and claims once the mover is away.
    own = mover.client.watch(mover.match_id, mover.seat)
    view = (await next_update(own)).view.bid
    await own.aclose()
    await mover.submit(game_pb2.Command(bid=view.legal[0]))
    stayer = second if mover is first else first
    stays = stayer.client.watch(stayer.match_id, stayer.seat)
    await until(stays, away(mover.seat))
    claimed = await stayer.submit(CLAIM)
    final = await first_end(stays)
    assert final.status == arbitration_pb2.STATUS_FINISHED
    assert final.outcome == game_pb2.Outcome(
        winner=stayer.seat, termination=game_pb2.TERMINATION_ABANDONED
    )
    assert final.seq >= claimed.seq
    log = await log_of(stayer)
    claim = [e for e in log.entries if e.command.HasField("claim")]
    assert [e.kind for e in claim] == [log_pb2.ENTRY_KIND_ACCEPTED]
    assert replay(log.entries).identical
    for seated in (first, second):
        rated = await poll_until(
            "the result reaches the ratings",
            functools.partial(_recorded, seated, game_pb2.GAME_BID),
        )
        assert rated == [True]


async def test_a_player_who_comes_back_resumes_and_cannot_be_claimed_against(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    eve = await player(http, stack, "Eve Here")
    fay = await player(http, stack, "Fay Back")
    here, back = await challenge(eve, fay, game_pb2.GAME_SPIT, rated=False)
    updates = here.client.watch(here.match_id, here.seat)
    await next_update(updates)
    await until(updates, away(back.seat))
    returning = back.client.watch(back.match_id, back.seat)  # Fay opens her stream again
    resumed = await next_update(returning)
    assert resumed.status == arbitration_pb2.STATUS_LIVE
    await until(updates, lambda u: list(u.away_seats) == [])
    with pytest.raises(CallError) as refused:
        await here.submit(CLAIM)
    assert refused.value.reason == "opponent_present"
    await asyncio.sleep(3)  # longer than the limit: her open stream keeps her present
    with pytest.raises(CallError) as still:
        await here.submit(CLAIM)
    assert still.value.reason == "opponent_present"
    await returning.aclose()
    await updates.aclose()
