"""A match's races from its arbitration log: who won each, and by how much (docs/fair-play.md).

A race is two commands for one resource (a Spit centre pile): the server's earlier arrival
lands, the other is refused with the gap between the two stamps. The log keeps both
(a refused entry's ``race``). Game-agnostic: any claimed resource races the same way.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from photofinish.arbitration.v1 import log_pb2


@dataclass(frozen=True, slots=True)
class Race:
    """One race as one seat ran it."""

    seat: int
    won: bool
    gap_ms: float  # between the two arrivals
    index: int  # the refused entry that records it


@dataclass(frozen=True, slots=True)
class RaceFigures:
    """A player's races: how many won and lost, and the median margin of the won ones."""

    won: int
    lost: int
    median_margin_ms: float | None


def races(log: Sequence[log_pb2.LogEntry]) -> list[Race]:
    """Every race of the match, twice: once for the seat that won it, once for the other."""
    found = []
    for entry in log:
        if entry.kind != log_pb2.ENTRY_KIND_REFUSED or not entry.HasField("race"):
            continue
        race, gap_ms, index = entry.race, entry.race.gap_us / 1000, int(entry.index)
        found.append(Race(race.landed_seat, True, gap_ms, index))
        found.append(Race(race.refused_seat, False, gap_ms, index))
    return found


def figures(seat_races: Iterable[Race]) -> RaceFigures:
    """The figures of one player's races (over one match or many)."""
    ran = list(seat_races)
    won = [race.gap_ms for race in ran if race.won]
    return RaceFigures(len(won), len(ran) - len(won), statistics.median(won) if won else None)
