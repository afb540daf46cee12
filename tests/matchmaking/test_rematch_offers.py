"""Rematches in process: both must offer; leaving withdraws an offer; only the two players
of a recent online match may ask; a failed opening leaves both free to offer again."""

from __future__ import annotations

import asyncio

import pytest

from games.registry import BID, SPIT
from services.common.opening import matches
from services.common.opening.matches import MatchId
from services.matchmaking.errors import NotFound, Reason, Unavailable
from services.matchmaking.rematch_offers import Recent, Rematches, Standing
from tests.matchmaking.tickets import Opening, player

ANN, BOB, CAT = player("Ann"), player("Bob"), player("Cat")


async def played(opening: Opening, rated: bool = True) -> tuple[Recent, str]:
    recent = Recent()
    spec = await opening.online(ANN, BOB, BID, rated)
    recent.add(spec)
    return recent, spec.match_id


def drained(updates: asyncio.Queue[Standing]) -> list[Standing]:
    items = []
    while not updates.empty():
        items.append(updates.get_nowait())
    return items


async def test_both_offers_open_the_same_game_and_terms_for_both() -> None:
    opening = Opening()
    recent, old = await played(opening)
    rematches = Rematches(recent, opening.online)
    async with rematches.follow(ANN, old) as ann, rematches.follow(BOB, old) as bob:
        assert drained(ann)[-1] == Standing(False, False, True)
        offered = await rematches.offer(ANN, old)
        assert offered == Standing(True, False, True)
        assert drained(bob)[-1] == Standing(False, True, True)
        accepted = await rematches.offer(BOB, old)
        assert accepted.match is not None
        ann_now = drained(ann)[-1]
        assert ann_now.match is not None and ann_now.match.match_id == accepted.match.match_id
    assert len(opening.opened) == 2
    new = opening.opened[-1]
    assert (new.game, new.rated, {p.id for p in new.players}) == (BID, True, {ANN.id, BOB.id})
    assert sorted([*ann_now.match.seats, *accepted.match.seats]) == [0, 1]
    assert recent.get(new.match_id) is new  # and that one may be played again too


async def test_leaving_the_end_screen_withdraws_an_offer() -> None:
    opening = Opening()
    recent, old = await played(opening)
    rematches = Rematches(recent, opening.online)
    async with rematches.follow(BOB, old) as bob:
        async with rematches.follow(ANN, old):
            await rematches.offer(ANN, old)
        assert drained(bob)[-1] == Standing(False, False, False)
        standing = await rematches.offer(BOB, old)
    assert standing.match is None and len(opening.opened) == 1


async def test_only_the_players_of_a_recent_online_match_may_ask() -> None:
    opening = Opening()
    recent, old = await played(opening)
    rematches = Rematches(recent, opening.online)
    hotseat = matches.hotseat(ANN, SPIT, MatchId("hot"), 1)
    recent.add(hotseat)
    for who, match_id in ((CAT, old), (ANN, "unknown"), (ANN, "hot")):
        with pytest.raises(NotFound) as error:
            await rematches.offer(who, match_id)
        assert error.value.reason is Reason.NO_REMATCH


async def test_a_failed_opening_leaves_both_free_to_offer_again() -> None:
    opening = Opening()
    recent, old = await played(opening)
    rematches = Rematches(recent, opening.online)
    opening.failure = Unavailable(Reason.NO_ARBITRATION, "down")
    await rematches.offer(ANN, old)
    with pytest.raises(Unavailable):
        await rematches.offer(BOB, old)
    opening.failure = None
    await rematches.offer(ANN, old)
    assert (await rematches.offer(BOB, old)).match is not None
