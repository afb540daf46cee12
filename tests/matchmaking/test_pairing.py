"""First-come pairing as a pure function: who meets whom, and what never happens."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from services.matchmaking.pairing import Pair, can_pair, pair
from services.matchmaking.tickets import Ticket
from tests.matchmaking.tickets import BID_CASUAL, SPIT_CASUAL, SPIT_RATED, ticket

NOW_NS = 60_000_000_000


def orders(pairs: tuple[Pair, ...]) -> list[tuple[int, int]]:
    return [(p.first.order, p.second.order) for p in pairs]


def test_the_two_longest_waiting_tickets_meet_first() -> None:
    line = [ticket(1, "Ann"), ticket(2, "Bob"), ticket(3, "Cat"), ticket(4, "Dan")]
    assert orders(pair(line, NOW_NS)) == [(1, 2), (3, 4)]


def test_a_lone_ticket_waits() -> None:
    assert pair([ticket(1, "Ann")], NOW_NS) == ()
    assert pair([], NOW_NS) == ()


def test_the_order_tickets_are_given_in_does_not_matter() -> None:
    line = [ticket(3, "Cat"), ticket(1, "Ann"), ticket(2, "Bob")]
    assert orders(pair(line, NOW_NS)) == [(1, 2)]


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
    assert not can_pair(line[0], line[1])


names = st.sampled_from(["Ann", "Bob", "Cat", "Dan"])
queues = st.sampled_from([SPIT_CASUAL, SPIT_RATED, BID_CASUAL])


@st.composite
def lines(draw: st.DrawFn) -> list[Ticket]:
    count = draw(st.integers(0, 12))
    order_numbers = draw(
        st.lists(st.integers(1, 1000), min_size=count, max_size=count, unique=True)
    )
    return [ticket(order, draw(names), draw(queues)) for order in order_numbers]


@given(lines())
def test_every_pair_can_meet_and_no_ticket_is_used_twice(line: list[Ticket]) -> None:
    pairs = pair(line, NOW_NS)
    used = [t.order for p in pairs for t in (p.first, p.second)]
    assert len(used) == len(set(used))
    for p in pairs:
        assert can_pair(p.first, p.second)
        assert p.first.order < p.second.order


@given(lines())
def test_no_two_tickets_left_waiting_could_have_met(line: list[Ticket]) -> None:
    used = {t.order for p in pair(line, NOW_NS) for t in (p.first, p.second)}
    left = [t for t in line if t.order not in used]
    assert not any(can_pair(a, b) for a in left for b in left)


@given(lines(), st.randoms(use_true_random=False))
def test_pairing_depends_on_the_line_not_on_how_it_is_listed(
    line: list[Ticket], shuffler: random.Random
) -> None:
    shuffled = list(line)
    shuffler.shuffle(shuffled)
    assert pair(shuffled, NOW_NS) == pair(line, NOW_NS)


@given(lines())
def test_the_longest_waiting_ticket_that_can_meet_anyone_is_paired(line: list[Ticket]) -> None:
    pairs = pair(line, NOW_NS)
    meetable = [a for a in line if any(can_pair(a, b) for b in line)]
    if meetable:
        longest = min(meetable, key=lambda t: t.order)
        assert longest.order in {t.order for p in pairs for t in (p.first, p.second)}
