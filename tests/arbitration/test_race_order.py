"""Races for a Spit pile: whichever play reached the server first counts, always.

Two players' Submit calls are run as concurrent tasks whose start order and yields are
drawn by hypothesis, so every example is one interleaving of the two arrivals. The order
in which the calls actually reached the servicer is recorded at the instant of the call
(the servicer stamps arrival on its first line, before anything awaits). The property: the
play that arrived first is accepted, the other is refused as the race's loser, and the log
and both players' notice name them in that order with both stamps and a positive gap.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence

import grpc
from hypothesis import given, settings
from hypothesis import strategies as st

from games.spit.claims import LOST_RACE
from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.game.v1 import game_pb2
from services.arbitration.match import Nudge
from services.arbitration.servicer import ArbitrationServicer
from services.common.identity import PLAYER_ID
from tests.arbitration.harness import Table, races

RACES_PER_MATCH = 6
STEPS_PER_MATCH = 60
UNTIL_JUDGED_S = 5.0


class Refused(Exception):
    """How Submit ended when the servicer aborted the call."""

    def __init__(self, status: grpc.Status) -> None:
        super().__init__(status.details)
        self.status = status


class CallContext:
    """What Submit reads of a grpc.aio call: the gateway's metadata; and how it aborts."""

    def __init__(self, seat: int) -> None:
        self._metadata = ((PLAYER_ID, f"p{seat}"),)

    def invocation_metadata(self) -> Sequence[tuple[str, str]]:
        return self._metadata

    async def abort_with_status(self, status: grpc.Status) -> None:
        raise Refused(status)


async def judged(table: Table, seq: int) -> None:
    """Wait until the match's worker has taken it past sequence number ``seq``."""
    async with asyncio.timeout(UNTIL_JUDGED_S):
        while table.match.seq <= seq:
            await asyncio.sleep(0)


async def race_interleavings(data: st.DataObject) -> int:
    """Play one Spit match's races in drawn interleavings; return how many were run."""
    table = Table(game_pb2.GAME_SPIT, data.draw(st.integers(1, 5000), label="seed"))
    await table.open()
    servicer = ArbitrationServicer(table.matches)
    arrivals: list[int] = []

    async def send(seat: int, command: game_pb2.Command, yields: int) -> object:
        for _ in range(yields):
            await asyncio.sleep(0)
        table.client_seq[seat] += 1
        request = arbitration_pb2.SubmitRequest(
            match_id=table.match.match_id,
            seat=seat,
            client_seq=table.client_seq[seat],
            command=command,
        )
        arrivals.append(seat)  # the servicer stamps arrival as soon as it is called
        return await servicer.Submit(request, CallContext(seat))  # type: ignore[arg-type]

    ran = 0
    try:
        for _ in range(STEPS_PER_MATCH):
            if ran == RACES_PER_MATCH or table.match.is_over():
                break
            seq = table.match.seq
            if table.match.decision.gated:  # the first spit, or a block
                table.match.queue.put_nowait(Nudge(table.match.version, time.monotonic_ns()))
                await judged(table, seq)
                continue
            race = next(races(table), None)
            if race is None:  # no race on offer: someone plays, and the piles change
                movers = [seat for seat in (0, 1) if table.legal(seat)]
                if movers:
                    seat = data.draw(st.sampled_from(movers), label="mover")
                    move = data.draw(st.sampled_from(table.legal(seat)), label="move")
                    with contextlib.suppress(Refused):
                        await send(seat, move, 0)
                continue
            first_started = data.draw(st.sampled_from((0, 1)), label="started first")
            yields = data.draw(st.tuples(st.integers(0, 3), st.integers(0, 3)), label="yields")
            arrivals.clear()
            tasks = {
                seat: asyncio.create_task(send(seat, race[seat], yields[seat]))
                for seat in (first_started, 1 - first_started)
            }
            outcomes = {
                seat: outcome
                for seat, outcome in zip(
                    tasks,
                    await asyncio.gather(*tasks.values(), return_exceptions=True),
                    strict=True,
                )
            }
            earlier, later = arrivals
            accepted = outcomes[earlier]
            refused = outcomes[later]
            assert isinstance(accepted, arbitration_pb2.SubmitReply), accepted
            assert isinstance(refused, Refused), refused
            assert refused.status.code == grpc.StatusCode.FAILED_PRECONDITION

            *_, landed, lost = await table.log()
            assert landed.kind == log_pb2.ENTRY_KIND_ACCEPTED and landed.seat == earlier
            assert lost.kind == log_pb2.ENTRY_KIND_REFUSED and lost.seat == later
            if not lost.HasField("race"):
                # The first play changed more than the pile (it ended the round, or left both
                # blocked): the second is refused for that, which is no race.
                assert lost.reason not in {reason.value for reason in LOST_RACE}, lost
                continue
            assert (lost.race.landed_seat, lost.race.refused_seat) == (earlier, later)
            assert lost.race.landed_arrival_us == landed.arrival_us == accepted.arrival_us
            assert lost.race.refused_arrival_us == lost.arrival_us
            # The gap is taken from the nanosecond stamps, each stamp here rounded down to µs.
            assert lost.race.gap_us >= 0
            assert 0 <= (lost.arrival_us - landed.arrival_us) - lost.race.gap_us <= 1
            assert table.outbox.sent[-1].race.landed_seat == earlier  # the players' notice
            assert table.outbox.sent[-1].race.landed_seq == landed.seq
            ran += 1
    finally:
        await table.close()
    return ran


@settings(max_examples=500, deadline=None)
@given(st.data())
def test_the_play_that_arrived_first_wins_in_every_interleaving(data: st.DataObject) -> None:
    asyncio.run(race_interleavings(data))


def test_the_interleavings_hold_races_both_ways() -> None:
    """The property above is not vacuous: seeds deal races, and either seat can win one."""

    class Fixed:
        def __init__(self, first: int) -> None:
            self.first = first

        def draw(self, strategy: object, label: str = "") -> object:
            if label in ("mover", "move"):
                return strategy.elements[0]  # type: ignore[attr-defined]
            return {"seed": 11, "started first": self.first, "yields": (0, 0)}[label]

    for first in (0, 1):
        assert asyncio.run(race_interleavings(Fixed(first))) > 0  # type: ignore[arg-type]
