"""The queues in process: waiting counts, replacement, cancel, leaving, opening failures."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from games.registry import BID, SPIT, Game
from services.common.identity import PlayerId
from services.common.opening.matches import Assignment
from services.matchmaking.errors import Reason, Refused, Superseded, Unavailable
from services.matchmaking.pairing import Pair, Recent
from services.matchmaking.queues import Queues, RatingOf
from services.matchmaking.tickets import Ticket, Waiting
from tests.matchmaking.tickets import BID_CASUAL, SPIT_CASUAL, SPIT_RATED, Opening, player

ANN, BOB, CAT = player("Ann"), player("Bob"), player("Cat")
S = 1_000_000_000


class Lines:
    """A pairing that pairs nobody and remembers every line it was shown."""

    def __init__(self) -> None:
        self.seen: list[list[int]] = []

    def __call__(self, waiting: Sequence[Ticket], now_ns: int, recent: Recent) -> tuple[Pair, ...]:
        self.seen.append([t.order for t in waiting])
        return ()


async def test_waiting_counts_follow_the_queue_up_and_down() -> None:
    queues = Queues(Opening().online, pair=Lines())
    async with queues.ticket(ANN, SPIT_CASUAL) as ann:
        assert await anext(ann) == Waiting(1)
        async with queues.ticket(BOB, SPIT_CASUAL) as bob:
            assert (await anext(ann), await anext(bob)) == (Waiting(2), Waiting(2))
            async with queues.ticket(CAT, BID_CASUAL) as cat:
                assert await anext(cat) == Waiting(1)
        assert await anext(ann) == Waiting(1)
    assert queues.length(SPIT_CASUAL) == 0


async def test_paired_tickets_get_one_match_and_their_updates_end() -> None:
    opening = Opening()
    queues = Queues(opening.online)
    async with queues.ticket(ANN, SPIT_RATED) as ann, queues.ticket(BOB, SPIT_RATED) as bob:
        assert await anext(ann) == Waiting(1)
        ann_match, bob_match = await anext(ann), await anext(bob)
        assert isinstance(ann_match, Assignment) and isinstance(bob_match, Assignment)
        assert ann_match.match_id == bob_match.match_id and ann_match.rated
        assert [item async for item in ann] == [] and [item async for item in bob] == []
    [spec] = opening.opened
    assert {p.id for p in spec.players} == {ANN.id, BOB.id}


async def test_a_replacement_in_the_same_queue_keeps_its_place_in_line() -> None:
    lines = Lines()
    queues = Queues(Opening().online, pair=lines)
    async with queues.ticket(ANN, SPIT_CASUAL) as first, queues.ticket(BOB, SPIT_CASUAL):
        ann_order = lines.seen[0][0]
        async with queues.ticket(ANN, SPIT_CASUAL) as second:
            with pytest.raises(Superseded) as error:
                [item async for item in first]
            assert error.value.reason is Reason.TICKET_REPLACED
            assert lines.seen[-1][0] == ann_order and len(lines.seen[-1]) == 2
            assert await anext(second) == Waiting(2)


async def test_a_ticket_for_the_other_queue_of_a_game_replaces_it_and_leaves_the_line() -> None:
    queues = Queues(Opening().online, pair=Lines())
    async with queues.ticket(ANN, SPIT_CASUAL) as casual:
        assert await anext(casual) == Waiting(1)
        async with queues.ticket(ANN, SPIT_RATED):
            with pytest.raises(Superseded):
                await anext(casual)
            assert (queues.length(SPIT_CASUAL), queues.length(SPIT_RATED)) == (0, 1)


async def test_one_player_may_wait_for_both_games_at_once() -> None:
    queues = Queues(Opening().online, pair=Lines())
    async with queues.ticket(ANN, SPIT_CASUAL) as spit, queues.ticket(ANN, BID_CASUAL) as bid:
        assert (await anext(spit), await anext(bid)) == (Waiting(1), Waiting(1))


async def test_cancel_withdraws_a_waiting_ticket_and_ends_its_updates() -> None:
    queues = Queues(Opening().online)
    async with queues.ticket(ANN, SPIT_CASUAL) as ann:
        assert await anext(ann) == Waiting(1)
        assert not queues.cancel(ANN.id, BID)
        assert queues.cancel(ANN.id, SPIT)
        assert [item async for item in ann] == []
        assert queues.length(SPIT_CASUAL) == 0
        assert not queues.cancel(ANN.id, SPIT)


async def test_leaving_the_context_withdraws_the_ticket() -> None:
    opening = Opening()
    queues = Queues(opening.online)
    async with queues.ticket(ANN, SPIT_CASUAL) as ann:
        assert await anext(ann) == Waiting(1)
    async with queues.ticket(BOB, SPIT_CASUAL) as bob:
        assert await anext(bob) == Waiting(1)
    assert opening.opened == []


async def test_a_player_who_leaves_while_the_match_opens_does_not_stop_it_for_the_other() -> None:
    opening = Opening()
    opening.gate.clear()
    queues = Queues(opening.online)
    async with queues.ticket(ANN, SPIT_CASUAL) as ann:
        assert await anext(ann) == Waiting(1)
        async with queues.ticket(BOB, SPIT_CASUAL):
            await asyncio.sleep(0)  # the opening has started and waits at the gate
        with pytest.raises(Refused) as error:
            async with queues.ticket(BOB, SPIT_CASUAL):
                pass
        assert error.value.reason is Reason.MATCH_BEING_OPENED
        opening.gate.set()
        assert isinstance(await anext(ann), Assignment)
    assert len(opening.opened) == 1
    async with queues.ticket(BOB, SPIT_CASUAL) as bob:  # free to queue again
        assert await anext(bob) == Waiting(1)


async def test_when_the_match_cannot_be_opened_both_players_are_told_and_released() -> None:
    opening = Opening(failure=Unavailable(Reason.NO_ARBITRATION, "nothing listens"))
    queues = Queues(opening.online)
    async with queues.ticket(ANN, SPIT_CASUAL) as ann, queues.ticket(BOB, SPIT_CASUAL) as bob:
        assert await anext(ann) == Waiting(1)
        for updates in (ann, bob):
            with pytest.raises(Unavailable) as error:
                await anext(updates)
            assert error.value.reason is Reason.NO_ARBITRATION
    async with queues.ticket(ANN, SPIT_CASUAL) as ann:
        assert await anext(ann) == Waiting(1)


class Clock:
    """The queues' monotonic clock, moved by the test."""

    def __init__(self) -> None:
        self.now_ns = 1_000 * S

    def __call__(self) -> int:
        return self.now_ns


def ratings(**by_name: float) -> RatingOf:
    """Return a rating lookup that knows the named players (1500 for anyone else)."""

    async def rating_of(player_id: PlayerId, game: Game) -> float:
        return by_name.get(player_id, 1500.0)

    return rating_of


async def test_players_far_apart_are_paired_once_their_windows_have_widened() -> None:
    opening, clock = Opening(), Clock()
    queues = Queues(opening.online, now_ns=clock, rating_of=ratings(ann=1500, bob=1700))
    async with queues.ticket(ANN, SPIT_RATED) as ann, queues.ticket(BOB, SPIT_RATED) as bob:
        assert await anext(ann) == Waiting(1)
        assert (await anext(ann), await anext(bob)) == (Waiting(2), Waiting(2))
        assert opening.opened == []
        clock.now_ns += 20 * S  # ±250 by now: no arrival, only the periodic pairing
        pairing = asyncio.create_task(queues.keep_pairing(0.001))
        try:
            assert isinstance(await anext(ann), Assignment)
            assert isinstance(await anext(bob), Assignment)
        finally:
            pairing.cancel()
    assert len(opening.opened) == 1


async def test_a_rated_pair_is_not_queued_into_an_immediate_rematch() -> None:
    opening, clock = Opening(), Clock()
    queues = Queues(opening.online, now_ns=clock, rematch_cooldown_s=600)
    async with queues.ticket(ANN, SPIT_RATED) as ann, queues.ticket(BOB, SPIT_RATED) as bob:
        await anext(ann)
        assert isinstance(await anext(bob), Assignment)
    clock.now_ns += 300 * S
    async with queues.ticket(ANN, SPIT_RATED) as ann, queues.ticket(BOB, SPIT_RATED) as bob:
        assert await anext(ann) == Waiting(1)
        assert (await anext(ann), await anext(bob)) == (Waiting(2), Waiting(2))
        async with queues.ticket(CAT, SPIT_RATED) as cat:
            assert isinstance(await anext(cat), Assignment)
            assert isinstance(await anext(ann), Assignment)
        assert await anext(bob) == Waiting(1)
    assert {p.id for p in opening.opened[-1].players} == {ANN.id, CAT.id}
    clock.now_ns += 300 * S  # the cooldown is over
    async with queues.ticket(ANN, SPIT_RATED) as ann, queues.ticket(BOB, SPIT_RATED) as bob:
        await anext(ann)
        assert isinstance(await anext(bob), Assignment)


async def test_a_casual_rematch_is_allowed_at_once() -> None:
    opening = Opening()
    queues = Queues(opening.online)
    for _ in range(2):
        async with queues.ticket(ANN, SPIT_CASUAL) as ann, queues.ticket(BOB, SPIT_CASUAL):
            await anext(ann)
            assert isinstance(await anext(ann), Assignment)
    assert len(opening.opened) == 2
