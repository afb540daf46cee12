"""Invariants over long random command sequences: legal, illegal and garbage, from both seats.

Each example drives one match through up to a few hundred mixed commands and checks,
after every one: all 52 cards are on the table exactly once; nothing face down shows in
any view or event for either seat or a spectator (checked on the serialized form); a
refused command leaves the encoded state unchanged; ``legal_commands`` is exactly what
applies; decisions are recomputable; each viewer's last view brought forward by the step's
events is its next view; snapshots round-trip; and the whole match replays from its seed
and command log.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from games.decision import Termination
from games.errors import EngineError, Malformed
from games.seats import SEATS, Seat, other
from games.spit import (
    Card,
    Command,
    Move,
    Options,
    Pause,
    Play,
    Rank,
    Ready,
    Resign,
    Resume,
    Spit,
    State,
    Suit,
    apply,
    decision,
    decode_state,
    encode_state,
    events_for,
    legal_commands,
    new_match,
    parse_command,
    view,
)
from games.spit.cards import full_deck
from games.spit.changes import changed
from games.spit.events import Event
from games.spit.view import told
from tests.games.spit.positions import random_position

DECK = Counter(full_deck())
VIEWERS: tuple[Seat | None, ...] = (Seat(0), Seat(1), None)

# Every well-formed command there is, most of them illegal at any moment.
ANY_COMMAND: list[Command] = [
    Ready(),
    Pause(),
    Resume(),
    Spit(),
    *(Spit(number=n) for n in range(1, 40)),
    *(Move(src=s, dst=d) for s in range(5) for d in range(5) if s != d),
    *(Play(stock=s, pile=p) for s in range(5) for p in range(2)),
    *(Play(stock=s, pile=p, onto=r) for s in range(5) for p in range(2) for r in Rank),
]
GARBAGE = ["", "play", "play 9 0", "move 2 2", "spit 0", "jump", "play 1 1 X", "ready 1", "♠"]


@dataclass
class Match:
    """A match under test, with the log needed to replay it."""

    state: State
    log: list[tuple[Seat, Command]] = field(default_factory=list)


def cards_in(value: object) -> set[Card]:
    """Return every card found in the serialized form of ``value``."""
    found: set[Card] = set()
    stack = [msgspec.to_builtins(value)]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if set(item) == {"rank", "suit"}:
                found.add(Card(Rank(item["rank"]), Suit(item["suit"])))
            else:
                stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def shown(state: State) -> set[Card]:
    """Return the cards anyone may see now: stock tops and centre tops."""
    tops = {card for side in state.sides for card in side.tops()}
    return tops | {pile[-1] for pile in state.centre if pile}


def public(state: State) -> set[Card]:
    """Return the cards that are face up now: stock tops and every centre card."""
    return {card for side in state.sides for card in side.tops()} | {
        card for pile in state.centre for card in pile
    }


def normal(state: State, command: Command) -> Command:
    """Return the form of ``command`` that ``legal_commands`` would list."""
    if isinstance(command, Play) and command.onto is None and state.centre[command.pile]:
        return Play(command.stock, command.pile, state.centre[command.pile][-1].rank)
    if isinstance(command, Spit) and command.number == state.spits + 1:
        return Spit()
    return command


def check_state(state: State) -> None:
    assert Counter(state.all_cards()) == DECK
    assert decode_state(encode_state(state)) == state
    hidden = state.face_down()
    for viewer in VIEWERS:
        seen = cards_in(view(state, viewer))
        assert seen == shown(state)  # equality also proves the walker finds cards
        assert not seen & hidden


def check_events(before: State, after: State, events: tuple[Event, ...]) -> None:
    allowed = public(before) | public(after)
    for viewer in VIEWERS:
        assert cards_in(events_for(events, viewer)) <= allowed


def send(match: Match, seat: Seat, command: Command) -> bool:
    """Apply ``command`` if the rules allow it; check the invariants either way."""
    before, encoded = match.state, encode_state(match.state)
    legal = set(legal_commands(before, seat))
    try:
        step = apply(before, seat, command)
    except EngineError:
        assert encode_state(before) == encoded
        assert normal(before, command) not in legal
        return False
    assert normal(before, command) in legal
    assert step.state.version == before.version + 1
    assert step.decision == decision(step.state)
    check_state(step.state)
    check_events(before, step.state, step.events)
    for viewer in VIEWERS:
        heard = events_for(step.events, viewer)
        assert changed(view(before, viewer), heard, told(step.state, viewer)) == view(
            step.state, viewer
        )
    match.state = step.state
    match.log.append((seat, command))
    return True


def act(match: Match, seat: Seat, kind: int, n: int) -> None:
    """Send one command chosen by ``kind`` and ``n``: mostly legal, some illegal, some garbage."""
    if kind < 12:
        choices = [c for c in legal_commands(match.state, seat) if not isinstance(c, Resign)]
        if choices:
            send(match, seat, choices[n % len(choices)])
    elif kind < 17:
        send(match, seat, ANY_COMMAND[n % len(ANY_COMMAND)])
    elif kind < 19:
        text = GARBAGE[n % len(GARBAGE)]
        try:
            command = parse_command(text)
        except Malformed as err:
            assert repr(text) in str(err)
        else:
            send(match, seat, command)
    elif n % 40 == 0:
        send(match, seat, Resign())
    else:
        before = encode_state(match.state)
        try:
            apply(match.state, Seat(2 + n % 3), Ready())
        except Malformed:
            assert encode_state(match.state) == before


def check_end(match: Match, start: State) -> None:
    replayed = start
    for seat, command in match.log:
        replayed = apply(replayed, seat, command).state
    assert replayed == match.state
    result = match.state.outcome
    if result is None:
        return
    assert result.winner in SEATS
    assert decision(match.state).seats == frozenset()
    if result.termination is Termination.CARDS:
        assert match.state.sides[result.winner].card_count() == 0
        assert match.state.sides[other(result.winner)].card_count() > 0
    assert all(not list(legal_commands(match.state, seat)) for seat in SEATS)


@given(
    seed=st.integers(0, 2**32),
    pausable=st.booleans(),
    length=st.integers(1, 400),
    choices=st.integers(0, 2**32),
)
def test_random_command_sequences_keep_every_invariant(
    seed: int, pausable: bool, length: int, choices: int
) -> None:
    # The long sequence comes from a seeded generator: hypothesis's buffer could not hold
    # hundreds of drawn commands per example.
    start = new_match(Options(pausable=pausable), seed)
    match = Match(start)
    check_state(match.state)
    rng = random.Random(choices)
    for _ in range(length):
        act(match, Seat(rng.randrange(2)), rng.randrange(20), rng.randrange(2**20))
    check_end(match, start)


@given(
    seed=st.integers(0, 2**32),
    pausable=st.booleans(),
    length=st.integers(1, 300),
    choices=st.integers(0, 2**32),
)
def test_random_sequences_from_random_mid_round_positions_keep_every_invariant(
    seed: int, pausable: bool, length: int, choices: int
) -> None:
    # Random positions reach what whole matches rarely do: lone spits, reshuffles of the
    # centre when no spit pile is left, rounds ending with few cards.
    start = random_position(seed, pausable=pausable)
    match = Match(start)
    check_state(match.state)
    rng = random.Random(choices)
    for _ in range(length):
        act(match, Seat(rng.randrange(2)), rng.randrange(20), rng.randrange(2**20))
    check_end(match, start)


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_random_legal_play_always_finishes_with_exactly_one_winner_by_cards(
    seed: int, choices: int
) -> None:
    start = new_match(Options(), seed)
    match = Match(start)
    rng = random.Random(choices)
    for _ in range(20_000):
        if match.state.outcome is not None:
            break
        seat = Seat(rng.randrange(2))
        legal = [c for c in legal_commands(match.state, seat) if not isinstance(c, Resign)]
        plays = [c for c in legal if isinstance(c, Play)]
        if legal:
            command = rng.choice(plays if plays and rng.random() < 0.8 else legal)
            step = apply(match.state, seat, command)
            match.state = step.state
            match.log.append((seat, command))
    assert match.state.outcome is not None
    assert match.state.outcome.termination is Termination.CARDS
    assert Counter(match.state.all_cards()) == DECK
    check_end(match, start)
