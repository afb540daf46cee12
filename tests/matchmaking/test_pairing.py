"""Rating-window pairing as a pure function: who meets whom, and what never happens."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.common.identity import PlayerId
from services.matchmaking.pairing import Pair, Recent, can_pair, pair
from services.matchmaking.tickets import Ticket
from services.matchmaking.window import Window
from tests.matchmaking.tickets import BID_CASUAL, SPIT_CASUAL, SPIT_RATED, ticket

S = 1_000_000_000
NOW_NS = 60 * S


def orders(pairs: tuple[Pair, ...]) -> list[tuple[int, int]]:
    return [(p.first.order, p.second.order) for p in pairs]


def fresh(order: int, name: str, rating: float) -> Ticket:
    """Return a ticket that joined just now: its window is the narrowest, ±50."""
    return ticket(order, name, rating=rating, since_ns=NOW_NS)


def waited(order: int, name: str, rating: float, seconds: float) -> Ticket:
    return ticket(order, name, rating=rating, since_ns=NOW_NS - round(seconds * S))


def test_the_window_starts_at_50_and_grows_10_points_a_second_to_500() -> None:
    window = Window()
    assert [window.half_width(s * S) for s in (0, 10, 25, 45, 3600)] == [50, 150, 300, 500, 500]
    assert window.seconds_to_cap() == 45
    with pytest.raises(ValueError):
        Window(start_points=600, cap_points=500)


def test_two_equal_players_meet_at_once() -> None:
    line = [fresh(1, "Ann", 1500), fresh(2, "Bob", 1500)]
    assert orders(pair(line, NOW_NS)) == [(1, 2)]


def test_players_far_apart_wait_until_both_windows_reach_each_other() -> None:
    assert pair([fresh(1, "Ann", 1500), fresh(2, "Bob", 1620)], NOW_NS) == ()
    # Ann has waited long enough for Bob, but Bob (just arrived) does not accept Ann yet.
    assert pair([waited(1, "Ann", 1500, 30), fresh(2, "Bob", 1620)], NOW_NS) == ()
    both = [waited(1, "Ann", 1500, 30), waited(2, "Bob", 1620, 7)]
    assert orders(pair(both, NOW_NS)) == [(1, 2)]


def test_beyond_the_cap_players_never_meet() -> None:
    line = [waited(1, "Ann", 1500, 3600), waited(2, "Bob", 2001, 3600)]
    assert pair(line, NOW_NS) == ()


def test_the_longest_waiting_ticket_chooses_first_and_takes_the_closest_rating() -> None:
    line = [
        waited(1, "Ann", 1500, 40),
        waited(2, "Bob", 1540, 30),
        waited(3, "Cat", 1510, 20),
        waited(4, "Dan", 1545, 10),
    ]
    # Ann takes Cat (10 away) over Bob (40 away); Bob and Dan meet next.
    assert orders(pair(line, NOW_NS)) == [(1, 3), (2, 4)]


def test_equally_close_ratings_go_to_the_one_who_waited_longer() -> None:
    line = [waited(1, "Ann", 1500, 40), waited(3, "Cat", 1520, 20), waited(2, "Bob", 1480, 30)]
    assert orders(pair(line, NOW_NS)) == [(1, 2)]


def test_the_longest_waiting_ticket_is_served_before_a_closer_pair_behind_it() -> None:
    line = [waited(1, "Ann", 1500, 40), waited(2, "Bob", 1530, 30), waited(3, "Cat", 1531, 20)]
    assert orders(pair(line, NOW_NS)) == [(1, 2)]


def test_a_lone_ticket_waits() -> None:
    assert pair([ticket(1, "Ann")], NOW_NS) == ()
    assert pair([], NOW_NS) == ()


def test_a_player_is_never_paired_with_themselves() -> None:
    line = [ticket(1, "Ann"), ticket(2, "Ann"), ticket(3, "Bob")]
    assert orders(pair(line, NOW_NS)) == [(1, 3)]
    assert pair([ticket(1, "Ann"), ticket(2, "Ann")], NOW_NS) == ()


def test_tickets_of_different_queues_never_meet() -> None:
    line = [
        ticket(1, "Ann", SPIT_CASUAL),
        ticket(2, "Bob", SPIT_RATED),
        ticket(3, "Cat", BID_CASUAL),
    ]
    assert pair(line, NOW_NS) == ()
    assert not can_pair(line[0], line[1], NOW_NS)


def test_a_rated_pair_that_just_met_waits_for_someone_else() -> None:
    recent: Recent = {frozenset((PlayerId("ann"), PlayerId("bob")))}
    rated = [ticket(1, "Ann", SPIT_RATED), ticket(2, "Bob", SPIT_RATED)]
    assert pair(rated, NOW_NS, recent) == ()
    assert orders(pair([*rated, ticket(3, "Cat", SPIT_RATED)], NOW_NS, recent)) == [(1, 3)]
    casual = [ticket(1, "Ann", SPIT_CASUAL), ticket(2, "Bob", SPIT_CASUAL)]
    assert orders(pair(casual, NOW_NS, recent)) == [(1, 2)]


def test_a_wider_window_pairs_sooner() -> None:
    line = [fresh(1, "Ann", 1500), fresh(2, "Bob", 1650)]
    assert pair(line, NOW_NS) == ()
    assert orders(pair(line, NOW_NS, window=Window(start_points=200, cap_points=300))) == [(1, 2)]


NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
queues = st.sampled_from([SPIT_CASUAL, SPIT_RATED, BID_CASUAL])


@st.composite
def lines(draw: st.DrawFn) -> list[Ticket]:
    """Up to 16 tickets: few players (so self-pairs tempt), ratings bunched and spread."""
    count = draw(st.integers(0, 16))
    order_numbers = draw(
        st.lists(st.integers(1, 1000), min_size=count, max_size=count, unique=True)
    )
    line = []
    for order in order_numbers:
        rating = draw(st.sampled_from([1500.0, 1525.0]) | st.floats(1000, 2200))
        since_ns = draw(st.integers(0, NOW_NS))
        line.append(ticket(order, draw(st.sampled_from(NAMES)), draw(queues), rating, since_ns))
    return line


@st.composite
def recents(draw: st.DrawFn) -> Recent:
    ids = [PlayerId(name.lower()) for name in NAMES]
    pairs = draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids)), max_size=6))
    return {frozenset(p) for p in pairs}


def paired_orders(pairs: tuple[Pair, ...]) -> list[int]:
    return [t.order for p in pairs for t in (p.first, p.second)]


@given(lines(), recents())
def test_every_pair_is_inside_both_windows_and_no_ticket_is_used_twice(
    line: list[Ticket], recent: Recent
) -> None:
    pairs = pair(line, NOW_NS, recent)
    used = paired_orders(pairs)
    assert len(used) == len(set(used))
    window = Window()
    for p in pairs:
        assert p.first.player.id != p.second.player.id
        gap = abs(p.first.rating - p.second.rating)
        assert gap <= window.half_width(NOW_NS - p.first.since_ns)
        assert gap <= window.half_width(NOW_NS - p.second.since_ns)
        assert can_pair(p.first, p.second, NOW_NS, recent)
        assert p.first.order < p.second.order


@given(lines(), recents())
def test_no_two_tickets_left_waiting_could_have_met(line: list[Ticket], recent: Recent) -> None:
    used = set(paired_orders(pair(line, NOW_NS, recent)))
    left = [t for t in line if t.order not in used]
    assert not any(can_pair(a, b, NOW_NS, recent) for a in left for b in left)


@given(lines(), recents())
def test_the_longest_waiting_ticket_that_can_meet_anyone_is_paired(
    line: list[Ticket], recent: Recent
) -> None:
    pairs = pair(line, NOW_NS, recent)
    meetable = [a for a in line if any(can_pair(a, b, NOW_NS, recent) for b in line)]
    if meetable:
        longest = min(meetable, key=lambda t: t.order)
        assert longest.order in paired_orders(pairs)


def reference_pair(line: list[Ticket], recent: Recent) -> list[tuple[int, int]]:
    """The documented rule, spelled out in O(n²): each in line order takes the closest."""
    taken: set[int] = set()
    found: list[tuple[int, int]] = []
    for first in sorted(line, key=lambda t: t.order):
        if first.order in taken:
            continue
        taken.add(first.order)
        options = [t for t in line if t.order not in taken and can_pair(first, t, NOW_NS, recent)]
        if options:
            second = min(options, key=lambda t: (abs(first.rating - t.rating), t.order))
            taken.add(second.order)
            found.append((first.order, second.order))
    return sorted(found)


@given(lines(), recents())
def test_the_fast_pairing_makes_the_same_pairs_as_the_rule_spelled_out(
    line: list[Ticket], recent: Recent
) -> None:
    assert orders(pair(line, NOW_NS, recent)) == reference_pair(line, recent)


@given(lines(), st.randoms(use_true_random=False))
def test_pairing_depends_on_the_line_not_on_how_it_is_listed(
    line: list[Ticket], shuffler: random.Random
) -> None:
    shuffled = list(line)
    shuffler.shuffle(shuffled)
    assert pair(shuffled, NOW_NS) == pair(line, NOW_NS)
