"""Private challenges: a code one player shares and one other player accepts, once.

A challenge is open while its creator's stream is open; closing the stream withdraws it.
Accepting takes the code out of the open set at once (one use), then opens the match in a
task of its own, so the creator gets the match even if the acceptor's call is cancelled
during that NATS round trip. If arbitration does not answer, both are told UNAVAILABLE and
the code is spent: the creator makes a new challenge.

Before the match is opened, the creator's stream is asked whether it is still there: it
sends its code again (``Probe``), and the acceptor goes on only once that message is
written. A stream its creator closed cannot be written to, and gRPC's core knows of the
close as soon as it reads it, turns of this process's event loop before the stream's
handler is cancelled: an accept read after the close would otherwise find the challenge
still open (a closed challenge accepted, once in about 150 tries under load).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from dataclasses import dataclass, field

from games.registry import Game
from services.common.identity import Player
from services.common.opening.matches import Assignment, assignment
from services.matchmaking.codes import Code, fresh_code, parse_code
from services.matchmaking.errors import (
    RATED_IS_FOR_ACCOUNTS,
    Forbidden,
    NotFound,
    Reason,
    Refused,
    Unavailable,
)
from services.matchmaking.metrics import OPEN_CHALLENGES
from services.matchmaking.queues import OpenOnline

log = logging.getLogger(__name__)

# A player's open challenges at once: a few friends to invite, not the whole lobby's codes.
MAX_OPEN_PER_PLAYER = 3
# How long an acceptor waits for the creator's stream to take its code again: a stream
# that cannot take one message in this time is not one to open a match for.
PROBE_TIMEOUT_S = 5.0

# An acceptor's question to the creator's stream: set True once the code went out again.
Probe = asyncio.Future[bool]


@dataclass(slots=True, eq=False)
class OpenChallenge:
    """A challenge as its creator's stream sees it: the code, the acceptors' probes to
    answer by sending the code again, then the match."""

    code: Code
    creator: Player
    game: Game
    rated: bool
    outcome: asyncio.Future[Assignment]
    _asked: asyncio.Queue[Probe | None] = field(default_factory=asyncio.Queue)
    _probes: list[Probe] = field(default_factory=list)  # the probes not answered yet
    closed: bool = False

    async def next_probe(self) -> Probe | None:
        """Return the next acceptor's probe, None once the match is being opened."""
        return await self._asked.get()

    def ask(self) -> Probe:
        """Return a new probe, queued for the creator's stream to answer."""
        probe: Probe = asyncio.get_running_loop().create_future()
        self._probes = [*(asked for asked in self._probes if not asked.done()), probe]
        self._asked.put_nowait(probe)
        return probe

    def settling(self) -> None:
        """Tell the creator's stream to wait for the match: no more probes."""
        self._asked.put_nowait(None)

    def withdraw(self) -> None:
        """Mark the challenge closed; a probe the stream did not answer is answered: gone
        (queued, or taken by a stream whose write failed)."""
        self.closed = True
        for probe in self._probes:
            if not probe.done():
                probe.set_result(False)


async def shown(challenge: OpenChallenge) -> AsyncGenerator[Code | Assignment, None]:
    """Yield what the creator's stream sends: the code; the code again for each acceptor's
    probe, answered once the stream has taken it (a gRPC handler resumes its generator only
    after the update it yielded is written); then the match (Unavailable when it was not
    opened)."""
    yield challenge.code
    while (probe := await challenge.next_probe()) is not None:
        yield challenge.code
        if not probe.done():
            probe.set_result(True)
    yield await challenge.outcome


class Challenges:
    """The open challenges of the service, by code."""

    def __init__(self, open_online: OpenOnline, draw_code: Callable[[], Code] = fresh_code):
        self._open_online = open_online
        self._draw_code = draw_code
        self._open: dict[Code, OpenChallenge] = {}
        self._settling: set[asyncio.Task[Assignment]] = set()

    @contextlib.asynccontextmanager
    async def create(
        self, creator: Player, game: Game, rated: bool
    ) -> AsyncIterator[OpenChallenge]:
        """Keep a challenge open while the context is; yield it (its code, the acceptors'
        probes, its match: ``outcome``, Unavailable when arbitration did not open it).

        Raises:
            Refused: when the creator already has ``MAX_OPEN_PER_PLAYER`` challenges open.
        """
        held = sum(c.creator.id == creator.id for c in self._open.values())
        if held >= MAX_OPEN_PER_PLAYER:
            raise Refused(
                Reason.TOO_MANY_CHALLENGES,
                f"you have {held} challenges open, the most at once: close one to make another",
            )
        code = self._draw_code()
        while code in self._open:
            code = self._draw_code()
        outcome: asyncio.Future[Assignment] = asyncio.get_running_loop().create_future()
        challenge = OpenChallenge(code, creator, game, rated, outcome)
        self._open[code] = challenge
        OPEN_CHALLENGES.set(len(self._open))
        try:
            yield challenge
        finally:
            challenge.withdraw()
            if self._open.get(code) is challenge:
                del self._open[code]
                OPEN_CHALLENGES.set(len(self._open))
            if not outcome.done():
                outcome.cancel()
            elif not outcome.cancelled():
                outcome.exception()  # retrieved: the creator has gone, nobody else will

    def rated_game(self, text: str) -> Game | None:
        """Return the game of the open rated challenge ``text`` names (None: none such)."""
        code = parse_code(text)
        challenge = self._open.get(code) if code is not None else None
        return challenge.game if challenge is not None and challenge.rated else None

    async def accept(self, acceptor: Player, text: str, account: bool = True) -> Assignment:
        """Return the acceptor's assignment to the match of the challenge ``text`` names.

        Raises:
            NotFound: when no open challenge has that code (unknown, withdrawn or used).
            Forbidden: when a guest (not ``account``) accepts a rated challenge; it stays open.
            Refused: when the acceptor created the challenge.
            Unavailable: when arbitration did not open the match.
        """
        code = parse_code(text)
        challenge = self._open.get(code) if code is not None else None
        if challenge is None:
            raise NotFound(Reason.NO_SUCH_CHALLENGE, f"no open challenge has the code {text!r}")
        if challenge.creator.id == acceptor.id:
            raise Refused(Reason.OWN_CHALLENGE, f"{acceptor} created challenge {challenge.code}")
        if challenge.rated and not account:
            raise Forbidden(Reason.ACCOUNT_NEEDED, RATED_IS_FOR_ACCOUNTS)
        del self._open[challenge.code]
        OPEN_CHALLENGES.set(len(self._open))
        if not await self._still_there(challenge):
            raise NotFound(Reason.NO_SUCH_CHALLENGE, f"no open challenge has the code {text!r}")
        challenge.settling()
        task = asyncio.create_task(self._settle(challenge, acceptor))
        self._settling.add(task)
        task.add_done_callback(self._settled)
        return await asyncio.shield(task)

    async def _still_there(self, challenge: OpenChallenge) -> bool:
        """Return whether the creator's stream took its code again (see the module's doc).

        An acceptor who leaves meanwhile gives the challenge back, open as before; a
        stream that takes nothing in ``PROBE_TIMEOUT_S`` ends with UNAVAILABLE.
        """
        if challenge.closed:
            return False
        probe = challenge.ask()
        try:
            async with asyncio.timeout(PROBE_TIMEOUT_S):
                return await asyncio.shield(probe)
        except TimeoutError:
            if not challenge.outcome.done():
                stuck = Unavailable(Reason.NO_ARBITRATION, "the challenge could not be confirmed")
                challenge.outcome.set_exception(stuck)
            challenge.settling()
            return False
        except asyncio.CancelledError:
            if not challenge.closed and challenge.code not in self._open:
                self._open[challenge.code] = challenge
                OPEN_CHALLENGES.set(len(self._open))
            raise

    async def _settle(self, challenge: OpenChallenge, acceptor: Player) -> Assignment:
        """Open the challenge's match; tell the creator and return the acceptor's part."""
        outcome = challenge.outcome
        try:
            spec = await self._open_online(
                challenge.creator, acceptor, challenge.game, challenge.rated
            )
        except Unavailable as error:
            if not outcome.done():
                outcome.set_exception(error)
            raise
        except BaseException:  # cancelled at shutdown, or a bug: the creator must not hang
            if not outcome.done():
                lost = Unavailable(Reason.NO_ARBITRATION, "the match could not be opened")
                outcome.set_exception(lost)
            raise
        if not outcome.done():
            outcome.set_result(assignment(spec, challenge.creator.id))
        return assignment(spec, acceptor.id)

    def _settled(self, task: asyncio.Task[Assignment]) -> None:
        self._settling.discard(task)
        if task.cancelled():
            return
        error = task.exception()  # retrieved here too: the acceptor may have gone
        if error is not None and not isinstance(error, Unavailable):
            log.error("opening a challenge's match failed", exc_info=error)
