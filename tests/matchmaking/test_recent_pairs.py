"""The rematch cooldown: a rated pair is blocked for a while, then forgotten."""

from __future__ import annotations

from services.common.identity import PlayerId
from services.matchmaking.recent_pairs import RecentPairs

ANN, BOB, CAT = PlayerId("ann"), PlayerId("bob"), PlayerId("cat")


def test_a_pair_is_blocked_until_the_cooldown_has_passed_either_way_round() -> None:
    recent = RecentPairs(cooldown_ns=100)
    recent.add(ANN, BOB, now_ns=1_000)
    assert frozenset((BOB, ANN)) in recent.blocked(1_099)
    assert frozenset((ANN, CAT)) not in recent.blocked(1_099)
    assert frozenset((ANN, BOB)) not in recent.blocked(1_100)


def test_pairing_again_restarts_the_cooldown_and_old_pairs_are_forgotten() -> None:
    recent = RecentPairs(cooldown_ns=100)
    recent.add(ANN, BOB, now_ns=1_000)
    recent.add(ANN, CAT, now_ns=1_050)
    recent.add(BOB, ANN, now_ns=1_080)
    assert set(recent.blocked(1_120)) == {frozenset((ANN, CAT)), frozenset((ANN, BOB))}
    assert set(recent.blocked(1_160)) == {frozenset((ANN, BOB))}
    assert set(recent.blocked(1_180)) == set()
