"""Known answers from fixed seeds: a change here means deals or rules changed — on purpose?"""

from __future__ import annotations

import pytest

from games.bot import Level
from games.decision import Outcome, Termination
from games.seats import Seat
from games.spit import (
    Move,
    Options,
    Phase,
    Play,
    Ready,
    apply,
    legal_commands,
    new_match,
)
from games.spit.selfplay import play_match

# seed: (south's stock tops, north's stock tops, centre after the first spit, plays+moves)
FIRST_DEALS = {
    1: ("5♣ 10♣ 8♥ 6♠ K♠", "Q♥ 4♣ K♥ 7♥ 4♠", "6♥ J♠", (2, 2)),
    2: ("4♦ A♥ 4♠ 10♠ 9♠", "5♦ 8♥ 7♦ 4♣ A♣", "4♥ 2♣", (1, 2)),
    3: ("10♥ 10♦ 9♠ 4♣ 4♥", "9♣ K♦ 2♣ J♦ J♥", "7♠ 8♠", (1, 1)),
    2024: ("5♣ 9♦ 2♣ 9♣ 8♦", "9♥ 9♠ 4♦ K♣ 7♥", "Q♣ Q♥", (0, 2)),
}


@pytest.mark.parametrize(("seed", "expected"), FIRST_DEALS.items())
def test_fixed_seeds_deal_and_spit_known_cards(
    seed: int, expected: tuple[str, str, str, tuple[int, int]]
) -> None:
    state = new_match(Options(), seed)
    tops = tuple(" ".join(str(pile[-1]) for pile in side.stock) for side in state.sides)
    for seat in (Seat(0), Seat(1)):
        state = apply(state, seat, Ready()).state
    centre = " ".join(str(pile[-1]) for pile in state.centre)
    counts = tuple(
        sum(isinstance(c, Play | Move) for c in legal_commands(state, seat))
        for seat in (Seat(0), Seat(1))
    )
    assert (*tops, centre, counts) == expected
    assert state.phase is Phase.PLAY


def test_a_fixed_self_play_match_has_a_known_result() -> None:
    result, stats = play_match(Level.MEDIUM, Level.MEDIUM, seed=5)
    assert result == Outcome(winner=Seat(0), termination=Termination.CARDS)
    assert (stats.rounds, stats.accepted) == (4, 171)
