"""A step's reply as the rules send it: written by hand, read as the generated classes read it.

The expected reply is built here the way the protobuf classes build one, field by field
from the engine's values; the reply the rules encode must decode to the same message, for
every step of random play, for both games, with and without the spectators' perspective,
and a claim, a state and its hash carried when there are some. A perspective holds the
whole view every ``WHOLE_VIEW_EVERY`` steps (and when the version a step came from is not
known), else the step's change from that version.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games import bid, spit
from games.codec import decision_to_proto, outcome_to_proto, seat_to_proto
from games.contract import Claim
from games.decision import Step, Termination
from games.registry import BY_NAME, Game
from games.seats import SEATS
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2
from services.rules import replies
from tests.rules.walks import RECIPIENTS, walk

SEEDS = st.integers(min_value=0, max_value=2**63)
PAUSE_MS = 1500


def built(
    entry: Game,
    step: Step[Any, Any],
    claim: Claim | None,
    spectators: bool,
    state: bytes,
    since: int,
) -> rules_pb2.StepReply:
    """Return the reply as the generated classes build it from the engine's values."""
    engine = entry.engine
    recipients = RECIPIENTS if spectators else SEATS
    outcome = engine.outcome(step.state)
    perspectives = []
    whole = since < 0 or not step.events or step.state.version % replies.WHOLE_VIEW_EVERY == 0
    for seat in recipients:
        events = [entry.codec.event_to_proto(e) for e in engine.events_for(step.events, seat)]
        seen = game_pb2.Seen(events=events, version=step.state.version)
        if whole:
            seen.view.CopyFrom(entry.codec.view_to_proto(engine.view(step.state, seat)))
        else:
            seen.told.CopyFrom(entry.codec.told_to_proto(engine.told(step.state, seat)))
            seen.since = since
        perspectives.append(
            rules_pb2.Perspective(
                seat=seat_to_proto(seat), seen=seen.SerializeToString(), whole_view=whole
            )
        )
    return rules_pb2.StepReply(
        state=state,
        decision=decision_to_proto(step.decision, PAUSE_MS),
        outcome=None if outcome is None else outcome_to_proto(outcome),
        perspectives=perspectives,
        version=step.state.version,
        claim="" if claim is None else claim.key,
        claim_label="" if claim is None else claim.label,
        claim_slot=0 if claim is None else claim.slot,
        clocked=entry.clocked,
        resignation=outcome is not None and outcome.termination is Termination.RESIGN,
        state_sha256=hashlib.sha256(state).digest() if state else b"",
    )


def _seen(data: bytes) -> game_pb2.Seen:
    return game_pb2.Seen.FromString(data)


@settings(max_examples=12)
@given(SEEDS, SEEDS, st.booleans())
def test_a_steps_encoded_reply_is_the_reply_the_generated_classes_build(
    seed: int, walk_seed: int, spectators: bool
) -> None:
    for name, options in (("bid", bid.Options()), ("spit", spit.Options(pausable=True))):
        entry = BY_NAME[name]
        rng = random.Random(walk_seed)
        for move in walk(entry.engine, entry.engine.new_match(options, seed), rng, 150):
            step = move.step
            claim = entry.claim(move.before, move.seat, move.command)
            state = entry.engine.encode_state(step.state) if rng.random() < 0.2 else b""
            digest = hashlib.sha256(state).digest() if state else b""
            since = move.before.version if rng.random() < 0.9 else -1  # -1: not known
            encoded = replies.encoded_step(
                entry, step, claim, PAUSE_MS, spectators, state, digest, since
            )
            decoded = rules_pb2.StepReply.FromString(encoded)
            expected = built(entry, step, claim, spectators, state, since)
            # A perspective's Seen is compared as a message: its parts may come in any order.
            assert [(p.seat, _seen(p.seen), p.whole_view) for p in decoded.perspectives] == [
                (p.seat, _seen(p.seen), p.whole_view) for p in expected.perspectives
            ]
            del decoded.perspectives[:], expected.perspectives[:]
            assert decoded == expected
