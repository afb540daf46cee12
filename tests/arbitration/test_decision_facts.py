"""What the arbitration reads of a rules decision, for every decision a reply can carry."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from photofinish.game.v1 import game_pb2
from services.arbitration.decision_facts import Lift, Seat, decision_from_proto

SEATS = st.lists(st.sampled_from([0, 1]), unique=True, max_size=2)
GATES = st.sampled_from(list(game_pb2.Gate.values()))
LIFTS = st.sampled_from([*game_pb2.Lift.values(), 7])  # 7: a lift this server does not know


@given(SEATS, st.booleans(), GATES, LIFTS, st.integers(min_value=0, max_value=60_000))
def test_a_decision_is_read_as_its_fields_say_every_time(
    seats: list[int],
    fresh: bool,
    gate: game_pb2.Gate.ValueType,
    lift: game_pb2.Lift.ValueType,
    lift_after_ms: int,
) -> None:
    wire = game_pb2.Decision(
        seats=seats, fresh=fresh, gate=gate, lift=lift, lift_after_ms=lift_after_ms
    )
    for _ in range(2):  # read again: the same facts, however they are kept
        facts = decision_from_proto(game_pb2.Decision.FromString(wire.SerializeToString()))
        assert facts.seats == frozenset(Seat(seat) for seat in seats)
        assert facts.fresh is fresh
        assert facts.gated is (gate != game_pb2.GATE_NONE)
        assert facts.lift is (Lift.NONE if lift == 7 else Lift(lift))
        assert facts.lift_after_ms == lift_after_ms
