"""The fair-play flag: a client answering every change in 50–100 ms is flagged within three
rated Spit games; a person-paced one (answers log-normal around 450 ms, chains around
200 ms) never is, over a hundred; chains never count."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from services.fairplay.flags import Thresholds, judge
from services.fairplay.reactions import Reaction, spit_reactions
from tests.fairplay.simulated import FAST_CLIENT, PERSON, Pace, play_match

GAMES_TO_FLAG = 3
PERSON_GAMES = 100


def _games(
    paces: tuple[Pace, Pace], games: int, seed: int
) -> list[tuple[list[Reaction], list[Reaction]]]:
    """Each game's reactions, by seat."""
    rng = random.Random(seed)
    played = []
    for game in range(games):
        reactions = spit_reactions(play_match(seed * 1000 + game, paces, rng))
        played.append(
            ([r for r in reactions if r.seat == 0], [r for r in reactions if r.seat == 1])
        )
    return played


def test_a_client_answering_in_50_to_100_ms_is_flagged_within_three_games() -> None:
    for seed in range(5):
        so_far: list[Reaction] = []
        verdicts = []
        for _, fast in _games((PERSON, FAST_CLIENT), GAMES_TO_FLAG, seed):
            so_far += fast
            verdicts.append(judge(so_far))
        assert verdicts[-1].flagged, verdicts
        assert "median answer" in verdicts[-1].why


def test_a_person_paced_player_is_never_flagged_over_a_hundred_games() -> None:
    """Judged after every game on all their games so far: a hundred against a person and a
    hundred against the fast client (whose quick plays only make the board change more)."""
    for paces in ((PERSON, PERSON), (PERSON, FAST_CLIENT)):
        so_far: list[Reaction] = []
        for person, _ in _games(paces, PERSON_GAMES, seed=11):
            so_far += person
            verdict = judge(so_far)
            assert not verdict.flagged, verdict
        assert judge(so_far).answers >= Thresholds().min_answers  # judged, not too few


def _reaction(ms: float, chain: bool = False) -> Reaction:
    return Reaction(seat=0, ms=ms, chain=chain, index=1)


def test_no_verdict_on_too_few_answers_and_chains_never_count() -> None:
    few = [_reaction(60)] * (Thresholds().min_answers - 1)
    assert not judge(few).flagged
    chains = [_reaction(60, chain=True)] * 500 + [_reaction(450)] * 40
    verdict = judge(chains)
    assert not verdict.flagged and verdict.answers == 40 and verdict.median_ms == 450


@given(st.lists(st.floats(0, 2000), min_size=30, max_size=200))
def test_too_many_anticipations_flag_even_with_a_human_median(slow: list[float]) -> None:
    """Answers under 100 ms are false starts however the rest look: more than a quarter of
    them flags, a quarter or fewer does not by that rule."""
    human = [_reaction(max(ms, 200)) for ms in slow]
    quick = [_reaction(80)] * (len(human) // 2)
    assert judge(human + quick).flagged  # a third under 100 ms
    few_quick = [_reaction(80)] * (len(human) // 4)
    verdict = judge(human + few_quick)
    assert verdict.flagged == (verdict.median_ms is not None and verdict.median_ms < 150)
