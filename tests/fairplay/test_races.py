"""A match's races from its log: each counted once for the winner and once for the loser,
with the gap between the two arrivals; a player's figures over their races."""

from __future__ import annotations

from photofinish.arbitration.v1 import log_pb2
from services.fairplay.races import Race, RaceFigures, figures, races


def _refused(index: int, landed: int, gap_us: int) -> log_pb2.LogEntry:
    race = log_pb2.RaceRecord(
        claim="pile:0", pile=0, landed_seat=landed, refused_seat=1 - landed, gap_us=gap_us
    )
    return log_pb2.LogEntry(index=index, kind=log_pb2.ENTRY_KIND_REFUSED, race=race)


def test_each_race_counts_once_for_each_seat_with_its_gap() -> None:
    log = [
        log_pb2.LogEntry(index=0, kind=log_pb2.ENTRY_KIND_OPENED),
        _refused(1, landed=0, gap_us=2500),
        log_pb2.LogEntry(index=2, kind=log_pb2.ENTRY_KIND_REFUSED, reason="not_adjacent"),
        _refused(3, landed=1, gap_us=800),
        _refused(4, landed=0, gap_us=12_000),
    ]
    found = races(log)
    assert found[:2] == [Race(0, True, 2.5, 1), Race(1, False, 2.5, 1)]
    assert len(found) == 6  # the refusal with no race is not one
    assert figures(r for r in found if r.seat == 0) == RaceFigures(2, 1, 7.25)
    assert figures(r for r in found if r.seat == 1) == RaceFigures(1, 2, 0.8)
    assert figures([]) == RaceFigures(0, 0, None)
