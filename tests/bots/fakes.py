"""A scripted public API for the seat player's tests, and updates built from engine states."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import aiohttp

from clients.grpcweb import CallError
from games import bid, spit
from games.bid import codec as bid_codec
from games.seats import Seat
from games.spit import codec as spit_codec
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2

MATCH = "m1"
End = None  # fed into a stream: the server ends it (as a gateway shutting down does)


@dataclass(slots=True)
class FakeArena:
    """Each ``watch`` call opens the next scripted stream; ``submit`` answers in turn.

    Streams are fed by the test (``feed``); ``answers`` are popped per submit: a reply's
    sequence number, or an error to raise. With no answers left, a submit is accepted
    with the next sequence number.
    """

    streams: list[asyncio.Queue[arbitration_pb2.MatchUpdate | BaseException | None]] = field(
        default_factory=list
    )
    answers: list[int | BaseException] = field(default_factory=list)
    submitted: list[game_pb2.Command] = field(default_factory=list)
    submitted_event: asyncio.Event = field(default_factory=asyncio.Event)
    watches: int = 0
    seq: int = 0

    def stream(self) -> asyncio.Queue[arbitration_pb2.MatchUpdate | BaseException | None]:
        """Return the queue of a stream to be opened by the next ``watch`` (or this one)."""
        queue: asyncio.Queue[arbitration_pb2.MatchUpdate | BaseException | None] = asyncio.Queue()
        self.streams.append(queue)
        return queue

    async def watch(
        self, match_id: str, seat: int, *, changes: bool = False
    ) -> AsyncIterator[arbitration_pb2.MatchUpdate]:
        del match_id, seat, changes  # its updates hold whole views: either way holds
        queue = self.streams[self.watches] if self.watches < len(self.streams) else self.stream()
        self.watches += 1
        while True:
            item = await queue.get()
            if item is End:
                return
            if isinstance(item, BaseException):
                raise item
            yield item

    async def submit(
        self, match_id: str, seat: int, command: game_pb2.Command
    ) -> arbitration_pb2.SubmitReply:
        del match_id, seat
        self.submitted.append(command)
        self.submitted_event.set()
        answer = self.answers.pop(0) if self.answers else None
        if isinstance(answer, BaseException):
            raise answer
        self.seq = self.seq + 1 if answer is None else answer
        return arbitration_pb2.SubmitReply(seq=self.seq)

    async def next_submission(self, timeout_s: float = 5.0) -> game_pb2.Command:
        """Return the next command submitted from now on."""
        count = len(self.submitted)
        while len(self.submitted) == count:
            self.submitted_event.clear()
            await asyncio.wait_for(self.submitted_event.wait(), timeout_s)
        return self.submitted[count]


def refusal(reason: str) -> CallError:
    return CallError(9, f"{reason}: refused", reason, {})


def lost() -> aiohttp.ClientConnectionError:
    return aiohttp.ClientConnectionError("connection reset")


def update(
    state: spit.State | bid.State,
    seq: int,
    seat: int = 0,
    status: arbitration_pb2.Status.ValueType = arbitration_pb2.STATUS_LIVE,
) -> arbitration_pb2.MatchUpdate:
    """Return ``seat``'s update for ``state`` at sequence number ``seq``."""
    if isinstance(state, spit.State):
        view = spit_codec.view_to_proto(spit.view(state, Seat(seat)))
        game = game_pb2.GAME_SPIT
    else:
        view = bid_codec.view_to_proto(bid.view(state, Seat(seat)))
        game = game_pb2.GAME_BID
    return arbitration_pb2.MatchUpdate(
        match_id=MATCH, seq=seq, seat=seat, game=game, view=view, status=status
    )


def spit_in_play(seat: int = 0, pausable: bool = False) -> spit.State:
    """Return a Spit match past its start gate in which ``seat`` has a play."""
    for seed in range(100):
        state = spit.new_match(spit.Options(pausable=pausable), seed)
        for who in (Seat(0), Seat(1)):
            state = spit.apply(state, who, spit.Ready()).state
        if any(isinstance(c, spit.Play) for c in spit.legal_commands(state, Seat(seat))):
            return state
    raise LookupError("no seed gives a play at once")
