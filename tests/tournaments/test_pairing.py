"""Pairing idle players near each other in the standings, avoiding recent opponents."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from services.common.identity import PlayerId
from services.tournaments.pairing import Idle, pair


def p(name: str) -> PlayerId:
    return PlayerId(name)


def idle(*names: str) -> list[Idle]:
    """Return idle players ranked in the order named, idle since 0."""
    return [Idle(p(name), rank, 0) for rank, name in enumerate(names, start=1)]


def test_neighbours_in_the_standings_are_paired() -> None:
    assert pair(idle("a", "b", "c", "d"), {}) == [(p("a"), p("b")), (p("c"), p("d"))]


def test_the_last_opponent_is_skipped_for_the_next_nearest() -> None:
    recent = {p("a"): [p("b")], p("b"): [p("a")]}
    assert pair(idle("a", "b", "c", "d"), recent) == [(p("a"), p("c")), (p("b"), p("d"))]


def test_the_last_two_opponents_are_avoided_but_the_third_is_not() -> None:
    recent = {p("a"): [p("d"), p("b"), p("c")]}
    assert pair(idle("a", "b", "c", "d"), recent)[0] == (p("a"), p("d"))


def test_a_recent_opponent_is_taken_when_nobody_else_is_idle() -> None:
    recent = {p("a"): [p("b")], p("b"): [p("a")]}
    assert pair(idle("a", "b"), recent) == [(p("a"), p("b"))]


def test_with_an_odd_number_the_most_recently_idle_waits() -> None:
    players = [Idle(p("a"), 1, 500), Idle(p("b"), 2, 100), Idle(p("c"), 3, 200)]
    assert pair(players, {}) == [(p("b"), p("c"))]


def test_nobody_or_one_idle_pairs_nobody() -> None:
    assert pair([], {}) == []
    assert pair(idle("a"), {}) == []


@st.composite
def idle_lists(draw: st.DrawFn) -> tuple[list[Idle], dict[PlayerId, list[PlayerId]]]:
    names = draw(st.lists(st.integers(0, 300), unique=True, max_size=40))
    ranks = draw(st.permutations(range(1, len(names) + 1)))
    players = [
        Idle(PlayerId(f"p{n}"), rank, draw(st.integers(0, 10_000)))
        for n, rank in zip(names, ranks, strict=True)
    ]
    ids = [i.player_id for i in players]
    recent = {
        player: draw(st.lists(st.sampled_from(ids), max_size=4)) if ids else [] for player in ids
    }
    return players, recent


@given(idle_lists())
def test_every_idle_player_but_at_most_one_is_paired_once_and_never_with_themselves(
    case: tuple[list[Idle], dict[PlayerId, list[PlayerId]]],
) -> None:
    players, recent = case
    pairs = pair(players, recent)
    paired = [player for two in pairs for player in two]
    assert len(paired) == len(set(paired))
    assert all(a != b for a, b in pairs)
    assert set(paired) <= {i.player_id for i in players}
    assert len(paired) == len(players) - len(players) % 2


@given(idle_lists())
def test_the_player_left_waiting_has_been_idle_the_shortest(
    case: tuple[list[Idle], dict[PlayerId, list[PlayerId]]],
) -> None:
    players, recent = case
    paired = {player for two in pair(players, recent) for player in two}
    for waiting in (i for i in players if i.player_id not in paired):
        assert all(waiting.idle_since_ms >= other.idle_since_ms for other in players)


@given(idle_lists())
def test_without_recent_opponents_pairs_are_neighbours_in_the_standings(
    case: tuple[list[Idle], dict[PlayerId, list[PlayerId]]],
) -> None:
    players, _ = case
    pairs = pair(players, {})
    rank = {i.player_id: i.rank for i in players}
    ranks = [rank[player] for two in pairs for player in two]
    assert ranks == sorted(ranks)


@given(idle_lists())
def test_a_rematch_happens_only_when_every_candidate_left_was_a_recent_opponent(
    case: tuple[list[Idle], dict[PlayerId, list[PlayerId]]],
) -> None:
    players, recent = case
    pairs = pair(players, recent)
    rank = {i.player_id: i.rank for i in players}
    last = {i.player_id: set(recent.get(i.player_id, [])[-2:]) for i in players}

    def fresh(a: PlayerId, b: PlayerId) -> bool:
        return b not in last[a] and a not in last[b]

    free = {player for two in pairs for player in two}
    for high, low in sorted(pairs, key=lambda two: rank[two[0]]):
        free.discard(high)
        if not fresh(high, low):
            below = [o for o in free if rank[o] > rank[high]]
            assert not any(fresh(high, o) for o in below)
        free.discard(low)
