"""Bot-against-bot Spit matches in simulated time, for tournaments and benchmarks.

A discrete-event simulation, pure and seeded: no clock is read. Each bot holds at most
one pending plan, due ``think_ms`` after it was made; the earliest due command is applied
(ties: the simulated server's spit first, then a seeded coin between the bots). A refused command
costs its bot a fresh plan and think. After every accepted command, each bot without a
pending plan, or whose plan is no longer legal, plans again from its new view — unless
that plan is due within ``commit_ms``: such a command is already on its way (the hand is
moving, the packet is sent), so it arrives and is refused, as in a real race. At
Gate.SPIT the simulated server sends the spit ``SPIT_PAUSE_MS`` after the blockage began
(as the arbitration does after a visible pause), unless a bot's Spit comes first.

A match always ends: it is cut off (``aborted`` says why) after ``max_commands`` commands
sent, after ``max_sim_ms`` of simulated time, or when no bot has anything planned and
the server has nothing due (a stall).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import msgspec

from games.bot import Level
from games.decision import Outcome
from games.errors import EngineError
from games.seats import SEATS, Seat
from games.spit import bots
from games.spit.commands import Command, Play, Spit
from games.spit.deal import new_match
from games.spit.model import Options, Phase, State
from games.spit.rules import apply
from games.spit.view import view

SPIT_PAUSE_MS = 800
COMMIT_MS = 150
SERVER = -1  # the simulated arbitration, which sends the spit when nobody else does


class MatchStats(msgspec.Struct, frozen=True):
    """What a simulated match took: commands, rounds, spits, simulated time."""

    accepted: int
    refused: int
    rounds: int
    spits: int
    reshuffles: int
    plays: tuple[int, int]
    sim_ms: int
    aborted: str | None  # None, "commands", "time" or "stall"


@dataclass(slots=True)
class _Match:
    """The simulator's working memory for one match (private, mutable by design)."""

    state: State
    levels: tuple[Level, Level]
    rngs: tuple[random.Random, random.Random]
    ties: random.Random
    pending: list[tuple[int, Command] | None]
    commit_ms: int
    now_ms: int = 0
    spit_due_ms: int | None = None
    accepted: int = 0
    refused: int = 0


def play_match(
    level_a: Level,
    level_b: Level,
    seed: int,
    *,
    options: Options | None = None,
    max_commands: int = 20_000,
    max_sim_ms: int = 4 * 3600 * 1000,
    commit_ms: int = COMMIT_MS,
) -> tuple[Outcome | None, MatchStats]:
    """Return how a match of ``level_a`` (seat 0) against ``level_b`` (seat 1) ends.

    The outcome is None when the match was cut off (see ``MatchStats.aborted``).
    """
    match = _Match(
        state=new_match(options or Options(), seed),
        levels=(level_a, level_b),
        rngs=(random.Random(f"{seed}/bot/0"), random.Random(f"{seed}/bot/1")),
        ties=random.Random(f"{seed}/ties"),
        pending=[None, None],
        commit_ms=commit_ms,
    )
    plays = [0, 0]
    for seat in SEATS:
        _replan(match, seat)
    aborted: str | None = None
    while match.state.outcome is None:
        aborted = _cut_off(match, max_commands, max_sim_ms)
        if aborted is not None:
            break
        actor, command = _next_due(match)
        seat = SEATS[0] if actor == SERVER else SEATS[actor]
        try:
            step = apply(match.state, seat, command)
        except EngineError:
            match.refused += 1
            if actor != SERVER:
                _replan(match, seat)
            continue
        match.accepted += 1
        if isinstance(command, Play):
            plays[seat] += 1
        _after_accepted(match, step.state)
    state = match.state
    stats = MatchStats(
        accepted=match.accepted,
        refused=match.refused,
        rounds=state.round_no,
        spits=state.spits,
        reshuffles=state.reshuffles,
        plays=(plays[0], plays[1]),
        sim_ms=match.now_ms,
        aborted=aborted,
    )
    return state.outcome, stats


def _cut_off(match: _Match, max_commands: int, max_sim_ms: int) -> str | None:
    if match.accepted + match.refused >= max_commands:
        return "commands"
    if match.now_ms > max_sim_ms:
        return "time"
    if match.spit_due_ms is None and all(plan is None for plan in match.pending):
        return "stall"
    return None


def _next_due(match: _Match) -> tuple[int, Command]:
    """Return the actor whose command is due first and that command; advance the time."""
    due: list[tuple[int, float, int]] = []
    if match.spit_due_ms is not None:
        due.append((match.spit_due_ms, -1.0, SERVER))
    coin = match.ties.random()
    order = (coin, 1 - coin)  # a seeded coin, so neither seat wins every tie
    due += [(plan[0], order[seat], seat) for seat, plan in enumerate(match.pending) if plan]
    at_ms, _, actor = min(due)
    match.now_ms = at_ms
    if actor == SERVER:
        match.spit_due_ms = None
        return actor, Spit(number=match.state.spits + 1)
    pending = match.pending[actor]
    assert pending is not None
    match.pending[actor] = None
    return actor, pending[1]


def _after_accepted(match: _Match, state: State) -> None:
    spat = state.spits != match.state.spits
    match.state = state
    if state.phase is not Phase.BLOCKED:
        match.spit_due_ms = None
    elif match.spit_due_ms is None or spat:
        match.spit_due_ms = match.now_ms + SPIT_PAUSE_MS
    for seat in SEATS:
        if _must_replan(match, seat):
            _replan(match, seat)


def _must_replan(match: _Match, seat: Seat) -> bool:
    """Return whether ``seat`` has no plan, or one overtaken by events and not yet sent."""
    pending = match.pending[seat]
    if pending is None:
        return True
    in_flight = pending[0] <= match.now_ms + match.commit_ms
    return not in_flight and not _is_legal(match.state, seat, pending[1])


def _is_legal(state: State, seat: Seat, command: Command) -> bool:
    try:
        apply(state, seat, command)
    except EngineError:
        return False
    return True


def _replan(match: _Match, seat: Seat) -> None:
    level, rng = match.levels[seat], match.rngs[seat]
    plan = bots.plan(view(match.state, seat), seat, level, rng)
    match.pending[seat] = None if plan is None else (match.now_ms + plan.think_ms, plan.command)
