"""Challenges in process: one use, own, unknown, withdrawn, a leaving acceptor, failures,
and the creator's stream asked whether it is still there before a match is opened."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Iterator

import pytest

from games.registry import BID, SPIT, Game
from services.common.identity import Player
from services.common.opening.matches import Assignment
from services.matchmaking import challenges as challenges_module
from services.matchmaking.challenges import Challenges, OpenChallenge, shown
from services.matchmaking.codes import Code
from services.matchmaking.errors import NotFound, Reason, Refused, Unavailable
from tests.matchmaking.tickets import Opening, player

ANN, BOB, CAT = player("Ann"), player("Bob"), player("Cat")


@contextlib.asynccontextmanager
async def created(
    challenges: Challenges, creator: Player, game: Game, rated: bool
) -> AsyncIterator[tuple[Code, Awaitable[Assignment]]]:
    """Yield the code and the match of a challenge whose creator's stream takes every
    update at once (as an open gRPC stream does), so every probe is answered."""
    async with challenges.create(creator, game, rated) as challenge:
        stream = asyncio.create_task(_take_all(challenge))
        try:
            yield challenge.code, challenge.outcome
        finally:
            stream.cancel()


async def _take_all(challenge: OpenChallenge) -> None:
    async for _ in shown(challenge):
        pass


async def test_an_accepted_challenge_tells_both_players_the_same_match() -> None:
    opening = Opening()
    challenges = Challenges(opening.online)
    async with created(challenges, ANN, BID, True) as (code, match):
        bob_match = await challenges.accept(BOB, code)
        ann_match = await match
    assert ann_match.match_id == bob_match.match_id and ann_match.rated
    assert sorted([*ann_match.seats, *bob_match.seats]) == [0, 1]
    [spec] = opening.opened
    assert spec.game is BID


async def test_a_code_is_used_once() -> None:
    challenges = Challenges(Opening().online)
    async with created(challenges, ANN, SPIT, False) as (code, _):
        await challenges.accept(BOB, code)
        with pytest.raises(NotFound):
            await challenges.accept(CAT, code)


async def test_accepting_your_own_challenge_is_refused() -> None:
    challenges = Challenges(Opening().online)
    async with created(challenges, ANN, SPIT, False) as (code, _):
        with pytest.raises(Refused) as error:
            await challenges.accept(ANN, code)
        assert error.value.reason is Reason.OWN_CHALLENGE


async def test_an_unknown_or_withdrawn_code_is_not_found() -> None:
    challenges = Challenges(Opening().online)
    async with created(challenges, ANN, SPIT, False) as (code, _):
        pass
    for text in (code, "ABCDEF", "?"):
        with pytest.raises(NotFound) as error:
            await challenges.accept(BOB, text)
        assert error.value.reason is Reason.NO_SUCH_CHALLENGE


async def test_a_code_in_use_is_never_handed_out_twice() -> None:
    draws: Iterator[Code] = iter([Code("AAAAAA"), Code("AAAAAA"), Code("BBBBBB")])
    challenges = Challenges(Opening().online, draw_code=lambda: next(draws))
    async with (
        created(challenges, ANN, SPIT, False) as (first, _),
        created(challenges, BOB, SPIT, False) as (second, _),
    ):
        assert (first, second) == ("AAAAAA", "BBBBBB")


async def test_the_creator_gets_the_match_even_if_the_acceptor_leaves_while_it_opens() -> None:
    opening = Opening()
    opening.gate.clear()
    challenges = Challenges(opening.online)
    async with created(challenges, ANN, SPIT, False) as (code, match):
        accepting = asyncio.create_task(challenges.accept(BOB, code))
        await opening.asked.wait()  # the match is being opened
        accepting.cancel()
        opening.gate.set()
        assert (await match).match_id == opening.opened[0].match_id
    with pytest.raises(asyncio.CancelledError):
        await accepting


async def test_when_the_match_cannot_be_opened_both_sides_are_told() -> None:
    opening = Opening(failure=Unavailable(Reason.NO_ARBITRATION, "nothing listens"))
    challenges = Challenges(opening.online)
    async with created(challenges, ANN, SPIT, False) as (code, match):
        with pytest.raises(Unavailable):
            await challenges.accept(BOB, code)
        with pytest.raises(Unavailable):
            await match


async def test_a_player_holds_three_challenges_open_at_most() -> None:
    challenges = Challenges(Opening().online)
    async with (
        challenges.create(ANN, SPIT, False),
        challenges.create(ANN, BID, True),
        created(challenges, ANN, SPIT, True) as (third, _),
    ):
        with pytest.raises(Refused) as error:
            async with challenges.create(ANN, BID, False):
                pass
        assert error.value.reason is Reason.TOO_MANY_CHALLENGES
        assert "you have 3 challenges open" in str(error.value)
        async with created(challenges, BOB, SPIT, False) as (code, _):  # others are not held
            await challenges.accept(CAT, code)
        await challenges.accept(BOB, third)  # one taken: Ann may make another
        async with created(challenges, ANN, BID, False) as (fourth, _):
            assert fourth != third


async def test_an_accept_waits_for_the_creators_stream_to_take_its_code_again() -> None:
    opening = Opening()
    challenges = Challenges(opening.online)
    async with challenges.create(ANN, SPIT, False) as challenge:
        stream = shown(challenge)
        assert await anext(stream) == challenge.code
        accepting = asyncio.create_task(challenges.accept(BOB, challenge.code))
        assert await anext(stream) == challenge.code  # the code again: still there?
        await asyncio.sleep(0.01)
        assert not accepting.done() and not opening.opened  # not until the stream took it
        match = asyncio.create_task(_next(stream))  # taken: the stream asks for the next
        bob, ann = await accepting, await match
        assert isinstance(ann, Assignment) and ann.match_id == bob.match_id


async def test_a_challenge_whose_stream_closed_before_it_took_the_code_is_not_found() -> None:
    # The race a browser's close makes: the accept is read after the close, but runs
    # before the creator's handler has been cancelled. The probe is never answered; the
    # handler's end answers it.
    opening = Opening()
    challenges = Challenges(opening.online)
    async with challenges.create(ANN, SPIT, False) as challenge:
        stream = shown(challenge)
        await anext(stream)
        accepting = asyncio.create_task(challenges.accept(BOB, challenge.code))
        assert await anext(stream) == challenge.code  # its write fails: never resumed
        await asyncio.sleep(0.01)
    with pytest.raises(NotFound) as error:
        await accepting
    assert error.value.reason is Reason.NO_SUCH_CHALLENGE
    assert not opening.opened
    await stream.aclose()


async def test_an_acceptor_who_leaves_while_the_creator_is_asked_gives_the_code_back() -> None:
    challenges = Challenges(Opening().online)
    async with challenges.create(ANN, SPIT, False) as challenge:
        stream = shown(challenge)
        await anext(stream)
        leaving = asyncio.create_task(challenges.accept(BOB, challenge.code))
        assert await anext(stream) == challenge.code  # Bob's probe: he waits on it now
        leaving.cancel()
        with pytest.raises(asyncio.CancelledError):
            await leaving
        taking = asyncio.create_task(_take_rest(stream))
        cat = await challenges.accept(CAT, challenge.code)  # open as before
        assert (await challenge.outcome).match_id == cat.match_id
        await taking


async def test_a_stream_that_takes_nothing_in_time_ends_and_the_acceptor_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(challenges_module, "PROBE_TIMEOUT_S", 0.05)
    opening = Opening()
    challenges = Challenges(opening.online)
    async with challenges.create(ANN, SPIT, False) as challenge:
        with pytest.raises(NotFound):
            await challenges.accept(BOB, challenge.code)
        with pytest.raises(Unavailable):
            await challenge.outcome
    assert not opening.opened


async def _next(stream: AsyncIterator[Code | Assignment]) -> Code | Assignment:
    return await anext(stream)


async def _take_rest(stream: AsyncIterator[object]) -> None:
    async for _ in stream:
        pass
