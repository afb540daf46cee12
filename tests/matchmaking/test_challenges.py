"""Challenges in process: one use, own, unknown, withdrawn, a leaving acceptor, failures."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from games.registry import BID, SPIT
from services.matchmaking.challenges import Challenges
from services.matchmaking.codes import Code
from services.matchmaking.errors import NotFound, Reason, Refused, Unavailable
from tests.matchmaking.tickets import Opening, player

ANN, BOB, CAT = player("Ann"), player("Bob"), player("Cat")


async def test_an_accepted_challenge_tells_both_players_the_same_match() -> None:
    opening = Opening()
    challenges = Challenges(opening.online)
    async with challenges.create(ANN, BID, True) as (code, match):
        bob_match = await challenges.accept(BOB, code)
        ann_match = await match
    assert ann_match.match_id == bob_match.match_id and ann_match.rated
    assert sorted([*ann_match.seats, *bob_match.seats]) == [0, 1]
    [spec] = opening.opened
    assert spec.game is BID


async def test_a_code_is_used_once() -> None:
    challenges = Challenges(Opening().online)
    async with challenges.create(ANN, SPIT, False) as (code, _):
        await challenges.accept(BOB, code)
        with pytest.raises(NotFound):
            await challenges.accept(CAT, code)


async def test_accepting_your_own_challenge_is_refused() -> None:
    challenges = Challenges(Opening().online)
    async with challenges.create(ANN, SPIT, False) as (code, _):
        with pytest.raises(Refused) as error:
            await challenges.accept(ANN, code)
        assert error.value.reason is Reason.OWN_CHALLENGE


async def test_an_unknown_or_withdrawn_code_is_not_found() -> None:
    challenges = Challenges(Opening().online)
    async with challenges.create(ANN, SPIT, False) as (code, _):
        pass
    for text in (code, "ABCDEF", "?"):
        with pytest.raises(NotFound) as error:
            await challenges.accept(BOB, text)
        assert error.value.reason is Reason.NO_SUCH_CHALLENGE


async def test_a_code_in_use_is_never_handed_out_twice() -> None:
    draws: Iterator[Code] = iter([Code("AAAAAA"), Code("AAAAAA"), Code("BBBBBB")])
    challenges = Challenges(Opening().online, draw_code=lambda: next(draws))
    async with (
        challenges.create(ANN, SPIT, False) as (first, _),
        challenges.create(BOB, SPIT, False) as (second, _),
    ):
        assert (first, second) == ("AAAAAA", "BBBBBB")


async def test_the_creator_gets_the_match_even_if_the_acceptor_leaves_while_it_opens() -> None:
    opening = Opening()
    opening.gate.clear()
    challenges = Challenges(opening.online)
    async with challenges.create(ANN, SPIT, False) as (code, match):
        accepting = asyncio.create_task(challenges.accept(BOB, code))
        await asyncio.sleep(0)
        accepting.cancel()
        opening.gate.set()
        assert (await match).match_id == opening.opened[0].match_id
    with pytest.raises(asyncio.CancelledError):
        await accepting


async def test_when_the_match_cannot_be_opened_both_sides_are_told() -> None:
    opening = Opening(failure=Unavailable(Reason.NO_ARBITRATION, "nothing listens"))
    challenges = Challenges(opening.online)
    async with challenges.create(ANN, SPIT, False) as (code, match):
        with pytest.raises(Unavailable):
            await challenges.accept(BOB, code)
        with pytest.raises(Unavailable):
            await match


async def test_a_player_holds_three_challenges_open_at_most() -> None:
    challenges = Challenges(Opening().online)
    async with (
        challenges.create(ANN, SPIT, False),
        challenges.create(ANN, BID, True),
        challenges.create(ANN, SPIT, True) as (third, _),
    ):
        with pytest.raises(Refused) as error:
            async with challenges.create(ANN, BID, False):
                pass
        assert error.value.reason is Reason.TOO_MANY_CHALLENGES
        assert "you have 3 challenges open" in str(error.value)
        async with challenges.create(BOB, SPIT, False) as (code, _):  # others are not held
            await challenges.accept(CAT, code)
        await challenges.accept(BOB, third)  # one taken: Ann may make another
        async with challenges.create(ANN, BID, False) as (fourth, _):
            assert fourth != third
