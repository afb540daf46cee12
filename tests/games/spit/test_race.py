"""The race (rules §6): two plays onto the same pile; the first to arrive counts."""

from __future__ import annotations

import pytest

from games.errors import Reason, Refused
from games.seats import Seat, other
from games.spit import Phase, Play, Rank, apply, encode_state
from tests.games.spit.positions import position

RACES = [
    (top, first_rank, second_rank, first_seat, with_onto)
    for top in Rank
    for first_rank in (Rank((top - 2) % 13 + 1), Rank(top % 13 + 1))  # one below, one above
    for second_rank in (Rank((top - 2) % 13 + 1), Rank(top % 13 + 1))
    for first_seat in (Seat(0), Seat(1))
    for with_onto in (True, False)
]


@pytest.mark.parametrize(("top", "first_rank", "second_rank", "first_seat", "with_onto"), RACES)
def test_first_play_onto_a_pile_counts_and_the_second_is_refused(
    top: Rank, first_rank: Rank, second_rank: Rank, first_seat: Seat, with_onto: bool
) -> None:
    second_seat = other(first_seat)
    fillers = [str(Rank((top + offset - 1) % 13 + 1)) for offset in (4, 6, 8)]  # far from top
    hands = {first_seat: str(first_rank), second_seat: str(second_rank)}
    # Each seat also has a two-card pile beside an empty space, so play is never blocked.
    state = position(
        stock0=[hands[Seat(0)], f"{fillers[0]} {fillers[0]}"],
        stock1=[hands[Seat(1)], f"{fillers[1]} {fillers[1]}"],
        centre0=str(top),
        centre1=fillers[2],
    )
    onto = top if with_onto else None

    first = apply(state, first_seat, Play(stock=0, pile=0, onto=onto))
    assert first.state.centre[0][-1] == state.sides[first_seat].stock[0][-1]
    assert first.state.phase is Phase.PLAY
    before = encode_state(first.state)
    with pytest.raises(Refused) as refused:
        apply(first.state, second_seat, Play(stock=0, pile=0, onto=onto))

    expected = Reason.PILE_TOP_CHANGED if with_onto else Reason.NOT_ADJACENT
    assert refused.value.reason is expected
    assert encode_state(first.state) == before
    assert first.state.sides[second_seat].stock[0] == state.sides[second_seat].stock[0]


def test_race_table_covers_every_rank_and_every_adjacent_pair() -> None:
    assert len(RACES) == 13 * 2 * 2 * 2 * 2
    assert {(Rank.KING, Rank.ACE), (Rank.ACE, Rank.KING)} <= {(t, f) for t, f, *_ in RACES}
