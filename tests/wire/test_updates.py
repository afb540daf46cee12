"""An update's lead: written first by the arbitration, read alone by the gateway."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from photofinish.arbitration.v1 import arbitration_pb2
from wire.updates import Lead, lead, read_lead

REST = arbitration_pb2.MatchUpdate(match_id="m1", seat=1, void_reason="x").SerializeToString()


PUBLISHED = [s for s in arbitration_pb2.Status.values() if s != arbitration_pb2.STATUS_UNSPECIFIED]


@given(
    seq=st.integers(min_value=0, max_value=2**64 - 1),
    status=st.sampled_from(PUBLISHED),
    gap_us=st.one_of(st.none(), st.integers(min_value=0, max_value=10**9)),
)
def test_the_lead_reads_back_and_the_whole_is_still_an_update(
    seq: int, status: arbitration_pb2.Status.ValueType, gap_us: int | None
) -> None:
    race = None if gap_us is None else arbitration_pb2.Race(gap_us=gap_us)
    data = lead(seq, status, race) + REST
    assert read_lead(data) == Lead(seq, status, gap_us is not None)
    update = arbitration_pb2.MatchUpdate.FromString(data)
    assert (update.seq, update.status, update.match_id, update.seat) == (seq, status, "m1", 1)
    assert update.HasField("race") is (gap_us is not None)
    if gap_us is not None:
        assert update.race.gap_us == gap_us


def test_bytes_without_a_lead_are_not_read_as_one() -> None:
    plain = arbitration_pb2.MatchUpdate(match_id="m1", seq=3).SerializeToString()
    assert read_lead(plain) is None
    assert read_lead(b"") is None
    assert read_lead(lead(300, arbitration_pb2.STATUS_LIVE)[:2]) is None  # cut in the number
