"""Invariants over random matches: random legal play mixed with illegal and garbage input.

Each example is one long match (a seed for the deal, a seed for the driver). Checked at
every step: all 28 tiles accounted for; chips sum to 300 and are never negative; no view
or redacted event shows a recipient a tile hidden from them; every illegal command
raises and leaves the state unchanged; legal commands apply; the reported decision is
recomputable; each recipient's last view brought forward by the step's events (and what
they do not tell) is its next view; snapshots round-trip. At the end: replay from seed
and log is exact, and a finished match has exactly one winner.
"""

from __future__ import annotations

import random
import string

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from games.bid import (
    FULL_SET,
    Accept,
    Bid,
    Command,
    Dealt,
    Draw,
    Drew,
    End,
    Event,
    Options,
    PassBid,
    Phase,
    Play,
    Played,
    Port,
    Ready,
    Resign,
    State,
    Tile,
    apply,
    decision,
    decode_state,
    encode_state,
    events_for,
    forfeit,
    legal_commands,
    new_match,
    parse_command,
    view,
)
from games.bid.changes import changed
from games.bid.view import told
from games.decision import Step, Termination
from games.errors import EngineError, Malformed
from games.seats import SEATS, Seat, other

SEEDS = st.integers(min_value=0, max_value=2**63)
_JSON = msgspec.json.Encoder()
_WORDS = ["play", "bid", "draw", "pass", "accept", "ready", "resign", "[3|5]", "[1|1]:branch-a"]


def _tiles_of(state: State) -> list[Tile]:
    board = [p.tile for p in state.board.placements]
    return [*state.hands[0], *state.hands[1], *state.boneyard, *board]


def _hidden_from(state: State, seat: Seat | None) -> set[Tile]:
    hidden = set(state.boneyard)
    for s in SEATS:
        if s != seat:
            hidden |= set(state.hands[s])
    return hidden


def _shows(blob: bytes, tile: Tile) -> bool:
    return f'{{"low":{tile.low},"high":{tile.high}}}'.encode() in blob


def _check_state(state: State) -> None:
    assert sorted(_tiles_of(state)) == sorted(FULL_SET)
    assert sum(state.balances) == 300
    assert min(state.balances) >= 0
    assert decode_state(encode_state(state)) == state
    # The incremental end sum agrees with counting the ends from scratch.
    assert state.board.total == sum(c.points for c in state.board.counted())
    if state.outcome is None:
        assert min(state.balances) > 0
        if state.phase is Phase.PLAY and state.gate is None:
            # The seat to act always has a play or a draw: passes are never left to them.
            assert any(not isinstance(c, Resign) for c in legal_commands(state, state.to_act))
    elif state.outcome.termination is Termination.CHIPS:
        assert state.balances[other(state.outcome.winner)] == 0


def _check_secrets(before: State, after: State, events: tuple[Event, ...]) -> None:
    played = {e.tile for e in events if isinstance(e, Played)}
    for seat in (Seat(0), Seat(1), None):
        blob = _JSON.encode(view(after, seat))
        assert not [t for t in _hidden_from(after, seat) if _shows(blob, t)]
        own_draws = {t for e in events if isinstance(e, Drew) and e.seat == seat for t in e.tiles}
        dealt = {
            t for e in events if isinstance(e, Dealt) and seat is not None for t in e.hands[seat]
        }
        allowed = played | own_draws | dealt
        blob = _JSON.encode(events_for(events, seat))
        leaked = [t for t in _hidden_from(before, seat) - allowed if _shows(blob, t)]
        assert not leaked, (seat, leaked, events)


def _check_changes(before: State, step: Step[State, Event]) -> None:
    for seat in (Seat(0), Seat(1), None):
        heard = events_for(step.events, seat)
        brought = changed(view(before, seat), heard, told(step.state, seat))
        assert brought == view(step.state, seat), (seat, step.events)


def _random_command(state: State, seat: Seat, rng: random.Random) -> Command:
    kind = rng.randrange(8)
    if kind == 0:
        bare: list[Command] = [Ready(), Draw(), PassBid(), Accept()]
        return rng.choice(bare)
    if kind == 1:
        return Bid(rng.randrange(-10, 400))
    if kind == 2:
        return Bid(state.bid + rng.randrange(-2, 4) * 5 + rng.choice([0, 0, 1, 3]))
    hand = state.hands[seat]
    tile = rng.choice(hand) if hand and kind < 6 else rng.choice(FULL_SET)
    if kind == 3 or state.board.is_empty:
        return Play(tile)
    if kind < 6:
        return Play(tile, rng.choice(state.board.ends))  # near misses: real ends, own tiles
    return Play(tile, End(rng.choice(FULL_SET), rng.choice(list(Port))))


def _random_text(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return " ".join(rng.choice(_WORDS) for _ in range(rng.randrange(4)))
    return "".join(rng.choice(string.printable) for _ in range(rng.randrange(12)))


def _try_illegal(state: State, rng: random.Random) -> None:
    snapshot = encode_state(state)
    seat = Seat(rng.randrange(2))
    if rng.random() < 0.3:
        try:
            command = parse_command(_random_text(rng))
        except Malformed:
            return
    else:
        command = _random_command(state, seat, rng)
    if command in set(legal_commands(state, seat)):
        return
    try:
        apply(state, seat, command)
    except EngineError:
        assert encode_state(state) == snapshot
        return
    raise AssertionError(f"illegal {command} by seat {seat} was applied")


def _pick(state: State, rng: random.Random) -> tuple[Seat, Command]:
    seat = rng.choice(sorted(decision(state).seats))
    legal = [c for c in legal_commands(state, seat) if not isinstance(c, Resign)]
    if rng.random() < 0.001:
        return seat, Resign()
    calm = [c for c in legal if not isinstance(c, Bid)]
    if calm and rng.random() < 0.8:
        return seat, rng.choice(calm)
    return seat, rng.choice(legal)


def _replay(seed: int, log: list[tuple[Seat, Command]]) -> State:
    # Replays the log as text, the way it is stored: str() then parse_command().
    state = new_match(Options(), seed)
    for seat, command in log:
        state = apply(state, seat, parse_command(str(command))).state
    return state


@given(seed=SEEDS, driver=SEEDS)
def test_random_play_with_illegal_input_keeps_every_invariant(seed: int, driver: int) -> None:
    rng = random.Random(driver)
    state = new_match(Options(), seed)
    log: list[tuple[Seat, Command]] = []
    _check_state(state)
    while state.outcome is None and len(log) < 250:
        for _ in range(rng.randrange(3)):
            _try_illegal(state, rng)
        seat, command = _pick(state, rng)
        others = [c for c in legal_commands(state, seat) if c != command]
        for extra in rng.sample(others, min(2, len(others))):
            apply(state, seat, extra)  # every listed command applies
        step = apply(state, seat, command)
        assert step.state.version == state.version + 1
        assert step.decision == decision(step.state)
        _check_state(step.state)
        _check_secrets(state, step.state, step.events)
        _check_changes(state, step)
        log.append((seat, command))
        assert parse_command(str(command)) == command
        state = step.state
    assert encode_state(_replay(seed, log)) == encode_state(state)
    if state.outcome is None:
        loser = Seat(rng.randrange(2))
        forfeited = forfeit(state, loser, Termination.TIME)
        ended = forfeited.state
        assert ended.outcome is not None and ended.outcome.winner == other(loser)
        _check_state(ended)
        _check_changes(state, forfeited)


@given(seed=SEEDS, driver=SEEDS)
def test_random_matches_end_with_exactly_one_winner_and_replay_exactly(
    seed: int, driver: int
) -> None:
    rng = random.Random(driver)
    state = new_match(Options(), seed)
    log: list[tuple[Seat, Command]] = []
    while state.outcome is None:
        assert len(log) < 20_000, "a random match did not end"
        seat, command = _pick(state, rng)
        state = apply(state, seat, command).state
        assert sum(state.balances) == 300 and min(state.balances) >= 0
        assert len(_tiles_of(state)) == 28
        log.append((seat, command))
    assert state.outcome.winner in SEATS
    assert decision(state).seats == frozenset()
    _check_state(state)
    assert encode_state(_replay(seed, log)) == encode_state(state)
