"""The design's floor with the game in it: a judge that steps real matches.

``bench.floor.chain``'s judge answers each stored command and sends both seats a bare
update. This one does what a judge standing where the rules service stands would do under
the stamp-store-judge shape (docs/performance.md): each floor match is a real match, Spit
or Bid in turn as in the stack, replaying the commands of a recorded bot match (the floor's
players send a placeholder; which command is played does not change what a step costs);
each stored command is a step of the held match (``HeldMatches``, the rules service's own
table), and each seat gets an update made as the arbitration makes it: the lead, the
match's fixed fields encoded once, the decision, and the seat's view and events as the
rules encoded them. After a step of a clocked game (Bid) the judge tells the stamper which
seat's clock runs now (the message the arbitration would need to keep the clock), and the
stamper reads it. No refusal, race, deadline or clock is judged; no spectator watches.

:class:`ChangesJudge` (``--shape changes``) sends views as changes instead: each update
carries the decision and the events its seat may hear, and a full view only every
``FULL_VIEW_EVERY`` steps of a match (a client that joins or falls behind would ask for
one). The seat's legal commands are left out of a change: a client would have them from
its own copy of the rules, or a change would carry them (for Bid's deciding seat, about a
tenth of a view's cost). What the rules' work would cost if views were sent as changes.

With ``facts_every_step`` (``--shape facts``, ``--shape changes-facts``) the judge tells
the stamper a step's facts after every step, Spit's too, as the arbitration keeps its
record of every match when the rules show (docs/performance.md): what that message a
command costs, sent one by one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from bench.drive import Log
from bench.engines import record
from bench.floor.stored import Stored
from bench.held_calls import held_applies
from games.codec import decision_to_proto
from games.registry import BID, GAMES, SPIT, Game
from games.seats import SEATS
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2
from services.common.natslink.frames import Message
from services.common.natslink.link import NatsLink
from services.rules import replies, steps
from services.rules.held_matches import HeldMatches
from services.rules.metrics import Applying
from services.rules.replies import Heard
from wire import subjects
from wire.updates import lead

FACTS_SUBJECT = "floor.facts"  # the judge's word to the stamper after a clocked step
LIVE = arbitration_pb2.STATUS_LIVE
RECORDED_PER_GAME = 6  # bot matches recorded per game, replayed by the floor's matches
FULL_VIEW_EVERY = 20  # ChangesJudge: a full view every this many steps of a match


@dataclass(slots=True)
class Replayed:
    """One floor match: the recorded match's commands it replays, and how far it has come."""

    game: Game
    calls: list[rules_pb2.HeldApply]
    heads: dict[int, bytes] = field(default_factory=dict)  # by seat: the fixed fields
    played: int = 0


def recorded() -> dict[str, tuple[Log, list[rules_pb2.HeldApply]]]:
    """Return bot matches of each game, by ``<game> <n>``, with their commands as calls."""
    return {
        f"{game.name} {number}": (log, held_applies(game, log))
        for game in GAMES
        for number, log in enumerate(record(game, RECORDED_PER_GAME))
    }


class RulesJudge:
    """Steps each stored command's match, sends both seats their update and the gateway
    its answer, and tells the stamper the clock's facts of a clocked game."""

    def __init__(self, link: NatsLink, facts_every_step: bool = False) -> None:
        self._link = link
        self._facts_every_step = facts_every_step
        self._table = HeldMatches(lift_pause_ms=0)
        self._recorded = recorded()
        self._matches: dict[str, Replayed] = {}

    def on_stored(self, message: Message) -> None:
        stored = Stored.decode(message.data)
        match_id = stored.match_id
        match = self._matches.get(match_id) or self._open(match_id)
        if match.played == len(match.calls):
            match = self._open(match_id)  # the recorded match is over: deal the next
        decision, seen = self._step(match, match_id)
        match.played += 1
        changing = arbitration_pb2.MatchUpdate(decision=decision).SerializeToString()
        leading = lead(stored.seq, LIVE)
        updates = [
            leading + self._head(match, match_id, seat) + changing + seen[seat]
            if seat in seen
            else b""
            for seat in (0, 1)
        ]
        self._link.publish(subjects.match_seats(match_id), stored.updates(updates))
        if not stored.command.follows:
            self._link.publish(stored.reply, stored.answer())
        if match.game.clocked or self._facts_every_step:
            facts = arbitration_pb2.MatchUpdate(match_id=match_id, decision=decision)
            self._link.publish(FACTS_SUBJECT, facts.SerializeToString())

    def _step(self, match: Replayed, match_id: str) -> tuple[game_pb2.Decision, dict[int, bytes]]:
        """Step the match's held state by its next command; return the decision and what
        each seat sees of the step (an encoded ``Seen``: its view and events)."""
        call = rules_pb2.HeldCall(
            match_id=match_id, version=match.played, apply=match.calls[match.played]
        )
        answer = self._table.answer(call)
        assert answer.HasField("step"), answer.refusal.message
        step = answer.step
        return step.decision, {p.seat: p.seen for p in step.perspectives}

    def _open(self, match_id: str) -> Replayed:
        number = int(match_id.rsplit("-", 1)[-1])
        game = (SPIT, BID)[number % 2]
        log, calls = self._recorded[f"{game.name} {number // 2 % RECORDED_PER_GAME}"]
        request = rules_pb2.NewMatchRequest(
            game=game_pb2.Game.ValueType(game.number), seed=log.seed
        )
        self._table.answer(rules_pb2.HeldCall(match_id=match_id, open=request))
        match = self._matches[match_id] = Replayed(game, calls)
        return match

    @staticmethod
    def _head(match: Replayed, match_id: str, seat: int) -> bytes:
        head = match.heads.get(seat)
        if head is None:
            head = match.heads[seat] = arbitration_pb2.MatchUpdate(
                match_id=match_id, seat=seat, game=game_pb2.Game.ValueType(match.game.number)
            ).SerializeToString()
        return head


def on_facts(message: Message) -> None:
    """The stamper reads the clock's facts of a clocked step (as the arbitration would)."""
    arbitration_pb2.MatchUpdate.FromString(message.data)


class ChangesJudge(RulesJudge):
    """The judge sending views as changes: the decision and each seat's events, a full
    view every ``FULL_VIEW_EVERY`` steps."""

    def __init__(self, link: NatsLink, facts_every_step: bool = False) -> None:
        super().__init__(link, facts_every_step)
        self._states: dict[str, Any] = {}

    def _open(self, match_id: str) -> Replayed:
        match = super()._open(match_id)
        self._states[match_id] = self._table.state_of(match_id)
        return match

    def _step(self, match: Replayed, match_id: str) -> tuple[game_pb2.Decision, dict[int, bytes]]:
        game, call = match.game, match.calls[match.played]
        with Applying(game.number):
            step = steps.apply(game, self._states[match_id], call.seat, call.command).step
        state = self._states[match_id] = step.state
        hashlib.sha256(game.engine.encode_state(state)).digest()  # the log's state hash
        game.engine.outcome(state)
        heard = Heard(game, step.events)
        if (match.played + 1) % FULL_VIEW_EVERY == 0:
            views = game.codec.views_to_bytes(game.engine.views(state, SEATS))
            seen = {
                seat: replies.seen(view, heard.by(seat))
                for seat, view in zip(SEATS, views, strict=True)
            }
        else:
            seen = {seat: heard.by(seat) for seat in SEATS}
        return decision_to_proto(step.decision, 0), {
            int(seat): shown for seat, shown in seen.items()
        }
