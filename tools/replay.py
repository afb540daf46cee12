"""Replay a match from its arbitration log alone, and say whether it reaches the same end.

`python -m tools.replay MATCH_ID [--nats URL] [--entries]` reads the log
from JetStream (`--file PATH` reads a saved MatchLog instead), prints "identical" or the
first divergence, and exits 1 on a divergence (2 when there is no such log).

A tool, never imported by the arbitration process: it runs the rules' pure engines the way
the rules service does (the same codec and step function, the state encoded between
steps) from the header's seed and options, then over every entry that changed the state:
accepted commands, flags (a forfeit on time) and nudges. After each it checks the state's
version and the sha256 of its encoding against the log; every refusal the engine gave
must be given again, for the same reason (the arbitration's own refusals — too late,
match over, reveal first — are about time and order, which the log states, not rules).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nats
from google.protobuf import text_format

from games.codec import outcome_to_proto
from games.decision import Termination
from games.errors import EngineError, Reason
from games.registry import Game
from games.seats import parse_seat
from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import game_pb2
from services.arbitration.matchlog.entries import CHANGES_STATE
from services.common.matchlogs import CLOSING, read_entries
from services.common.rejection import Rejection
from services.rules import steps
from services.rules.games import decode_state, entry_for
from services.stack.natsauth import operator_url

# Refusals the engine made, which a replay must make again. "match_over" is left out: the
# arbitration also says it of a command that came after the end, without asking the rules.
ENGINE_REASONS = frozenset(reason.value for reason in Reason) - {Reason.MATCH_OVER.value}
NUDGE = game_pb2.Command(nudge=game_pb2.Nudge())
APPLIED = frozenset(
    {log_pb2.ENTRY_KIND_ACCEPTED, log_pb2.ENTRY_KIND_FLAG, log_pb2.ENTRY_KIND_NUDGE}
)


@dataclass(frozen=True, slots=True)
class Divergence:
    """Where a replay first parted from the log, and how."""

    index: int
    kind: str
    detail: str

    def __str__(self) -> str:
        return f"entry {self.index} ({self.kind}): {self.detail}"


@dataclass(frozen=True, slots=True)
class Replayed:
    """What a replay reached: the encoded state, the steps it applied, any divergence."""

    state: bytes
    steps: int
    divergence: Divergence | None

    @property
    def identical(self) -> bool:
        return self.divergence is None


class _Mismatch(Exception):
    """An entry the engines do not reproduce (internal to ``replay``)."""


def replay(log: Sequence[log_pb2.LogEntry], live: bool = False) -> Replayed:
    """Return where the log's header and its entries lead, checked at every entry.

    A log without an end is a divergence, unless ``live``: the log of a match still being
    played, replayed to where it stands so far.
    """
    state, applied, position = b"", 0, 0
    try:
        header = _header(log)
        game = entry_for(header.created.game)
        options = game.codec.options_from_proto(header.created.options)
        state = game.engine.encode_state(game.engine.new_match(options, header.created.seed))
        _check(game, header, state)
        closed = False
        for position, logged in enumerate(log[1:], start=1):
            if logged.index != position:
                raise _Mismatch(f"index {logged.index} stands where {position} belongs")
            if closed and logged.kind != log_pb2.ENTRY_KIND_REFUSED:
                raise _Mismatch("only refusals of late commands may follow the end")
            state = _step(game, state, logged)
            applied += logged.kind in APPLIED
            _check(game, logged, state)
            closed = closed or logged.kind in CLOSING
        if not closed and not live:
            position = len(log)
            raise _Mismatch("the log ends before the match did")
    except (_Mismatch, Rejection, EngineError) as error:
        kind = log_pb2.EntryKind.Name(log[position].kind) if position < len(log) else "END"
        return Replayed(state, applied, Divergence(position, kind, str(error)))
    return Replayed(state, applied, None)


def _header(log: Sequence[log_pb2.LogEntry]) -> log_pb2.LogEntry:
    if not log or log[0].kind != log_pb2.ENTRY_KIND_OPENED or log[0].index != 0:
        raise _Mismatch("the log does not open with its header")
    return log[0]


def _step(game: Game, state: bytes, logged: log_pb2.LogEntry) -> bytes:
    """Return the encoded state after ``logged`` (``state`` itself when nothing changes)."""
    kind = logged.kind
    if kind == log_pb2.ENTRY_KIND_ACCEPTED and logged.command.HasField("claim"):
        decoded = decode_state(game, state)  # the away opponent lost by the claim
        step = game.engine.forfeit(decoded, parse_seat(1 - logged.seat), Termination.ABANDONED)
        return game.engine.encode_state(step.state)
    if kind == log_pb2.ENTRY_KIND_ACCEPTED:
        return _apply(game, state, logged.seat, logged.command)
    if kind == log_pb2.ENTRY_KIND_NUDGE:
        return _apply(game, state, 0, NUDGE)  # a nudge presses for whoever has not
    if kind == log_pb2.ENTRY_KIND_FLAG:
        decoded = decode_state(game, state)
        step = game.engine.forfeit(decoded, parse_seat(logged.flag.seat), Termination.TIME)
        return game.engine.encode_state(step.state)
    if kind == log_pb2.ENTRY_KIND_REFUSED and logged.reason in ENGINE_REASONS:
        _refused_again(game, state, logged)
    if kind == log_pb2.ENTRY_KIND_FINISHED:
        outcome = game.engine.outcome(decode_state(game, state))
        if outcome is None or outcome_to_proto(outcome) != logged.outcome:
            raise _Mismatch(f"the engines end with {outcome}, the log with {logged.outcome}")
    return state


def _apply(game: Game, state: bytes, seat: int, command: game_pb2.Command) -> bytes:
    try:
        applied = steps.apply(game, decode_state(game, state), seat, command)
    except Rejection as refusal:
        raise _Mismatch(f"the engine refuses it ({refusal.reason}): {refusal.message}") from None
    return game.engine.encode_state(applied.step.state)


def _refused_again(game: Game, state: bytes, logged: log_pb2.LogEntry) -> None:
    try:
        steps.apply(game, decode_state(game, state), logged.seat, logged.command)
    except Rejection as refusal:
        if refusal.reason != logged.reason:
            raise _Mismatch(f"refused for {refusal.reason}, the log says {logged.reason}") from None
        return
    raise _Mismatch(f"the engine accepts a command the log says it refused ({logged.reason})")


def _check(game: Game, logged: log_pb2.LogEntry, state: bytes) -> None:
    version = _version(game, state)
    if version != logged.version:
        raise _Mismatch(f"version {version}, the log says {logged.version}")
    if logged.kind not in CHANGES_STATE:
        return
    digest = hashlib.sha256(state).digest()
    if digest != logged.state_sha256:
        logged_hex = logged.state_sha256.hex()[:16] or "none"
        raise _Mismatch(f"state sha256 {digest.hex()[:16]}…, the log says {logged_hex}…")


def _version(game: Game, state: bytes) -> int:
    decoded: Any = decode_state(game, state)
    return int(decoded.version)


def summary(log: Sequence[log_pb2.LogEntry]) -> str:
    """Return one line on what the log holds."""
    kinds = [entry.kind for entry in log]
    races = sum(1 for entry in log if entry.HasField("race"))
    created = log[0].created if log else None
    game = game_pb2.Game.Name(created.game) if created else "?"
    return (
        f"match {log[0].match_id if log else '?'}: {game}, {len(log)} entries "
        f"({kinds.count(log_pb2.ENTRY_KIND_ACCEPTED)} accepted, "
        f"{kinds.count(log_pb2.ENTRY_KIND_REFUSED)} refused, {races} races, "
        f"{kinds.count(log_pb2.ENTRY_KIND_FLAG)} flags, "
        f"{kinds.count(log_pb2.ENTRY_KIND_NUDGE)} nudges)" + _not_logged(log)
    )


def _not_logged(log: Sequence[log_pb2.LogEntry]) -> str:
    """Return what the end says of refusals past their seat's bound ('' when none)."""
    counts = list(log[-1].refusals_not_logged) if log else []
    if not any(counts):
        return ""
    by_seat = ", ".join(f"seat {seat}: {count}" for seat, count in enumerate(counts))
    return f"; refusals answered but not logged, past their seat's bound: {by_seat}"


def describe(entry: log_pb2.LogEntry) -> str:
    """Return one entry as a line a person reads (times in ms since the match opened)."""
    kind = log_pb2.EntryKind.Name(entry.kind).removeprefix("ENTRY_KIND_").lower()
    text = f"#{entry.index} {entry.arrival_us / 1000:.3f} ms {kind}"
    if entry.kind in (log_pb2.ENTRY_KIND_ACCEPTED, log_pb2.ENTRY_KIND_REFUSED):
        text += f" seat {entry.seat} seq {entry.seq}: {_command_text(entry.command)}"
    if entry.HasField("deadline_us"):
        text += f" (deadline {entry.deadline_us / 1000:.3f} ms)"
    if entry.reason:
        text += f" refused: {entry.reason}"
    if entry.HasField("race"):
        race = entry.race
        text += (
            f"; lost {race.claim} to seat {race.landed_seat}'s {race.landed_card} "
            f"(arrived {race.landed_arrival_us / 1000:.3f} ms) by {race.gap_us / 1000:.3f} ms"
        )
    if entry.HasField("flag"):
        flag = entry.flag
        text += (
            f" seat {flag.seat}: deadline {flag.deadline_us / 1000:.3f} ms, "
            f"fired {flag.fired_us / 1000:.3f} ms ({flag.late_us} µs late)"
        )
    return text


def _command_text(command: game_pb2.Command) -> str:
    return text_format.MessageToString(command, as_one_line=True) or "(empty)"


async def _fetch(url: str, match_id: str) -> list[log_pb2.LogEntry]:
    nc = await nats.connect(url)
    try:
        return await read_entries(nc.jetstream(), match_id)
    finally:
        await nc.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("match_id")
    parser.add_argument(
        "--nats",
        # NATS_URL, else a running make run's operator (var/nats/operator.url), else its port.
        default=os.environ.get("NATS_URL") or operator_url() or "nats://127.0.0.1:7422",
    )
    parser.add_argument("--file", type=Path, help="a serialized MatchLog instead of NATS")
    parser.add_argument("--entries", action="store_true", help="print every entry")
    args = parser.parse_args(argv)
    if args.file is not None:
        log = list(log_pb2.MatchLog.FromString(args.file.read_bytes()).entries)
    else:
        log = asyncio.run(_fetch(args.nats, args.match_id))
    if not log:
        print(f"no log of match {args.match_id}")
        return 2
    print(summary(log))
    if args.entries:
        print("\n".join(describe(entry) for entry in log))
    result = replay(log)
    if result.divergence is not None:
        print(f"diverged at {result.divergence}")
        return 1
    print(f"identical: {result.steps} steps, final state sha256 {_sha(result.state)}")
    return 0


def _sha(state: bytes) -> str:
    return hashlib.sha256(state).hexdigest()


if __name__ == "__main__":
    sys.exit(main())
