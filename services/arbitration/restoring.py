"""Giving the rules service back a match it does not hold: the state rebuilt from the log.

A rules instance keeps match states in memory; after it restarts, or when the match's
arbitration restarted and no longer knows which instance held it, the match is
restored on any instance from its seed and the steps its log records (every command
the rules applied, every nudge, every flag), in order. The engines are deterministic,
so the rebuilt state is the one the log describes; its version must be the record's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2
from services.arbitration.match import Match
from services.arbitration.matchlog.writer import LogWriter
from services.arbitration.rules_client import RulesClient
from services.common.watching import SPECTATORS

_COMMANDS = frozenset({log_pb2.ENTRY_KIND_ACCEPTED, log_pb2.ENTRY_KIND_NUDGE})


class RestoreMismatch(Exception):
    """The state rebuilt from the log is not the one the match's record stands at."""


def restore_steps(entries: Iterable[log_pb2.LogEntry]) -> list[rules_pb2.RestoreStep]:
    """Return the steps that changed a match's state, in the order its log holds them."""
    steps = []
    for entry in entries:
        if entry.command.HasField("claim"):  # the away opponent lost by the claim
            steps.append(
                rules_pb2.RestoreStep(seat=1 - entry.seat, forfeit=game_pb2.TERMINATION_ABANDONED)
            )
        elif entry.kind in _COMMANDS:
            steps.append(rules_pb2.RestoreStep(seat=entry.seat, command=entry.command))
        elif entry.kind == log_pb2.ENTRY_KIND_FLAG:
            steps.append(
                rules_pb2.RestoreStep(seat=entry.flag.seat, forfeit=game_pb2.TERMINATION_TIME)
            )
    return steps


async def restore(
    rules: RulesClient,
    log_writer: LogWriter,
    match: Match,
    stored: Sequence[log_pb2.LogEntry] | None = None,
) -> None:
    """Have a rules instance hold ``match`` again, and take its current perspectives.

    ``stored`` is the match's log when the caller has just read it.

    Raises:
        RestoreMismatch: the rebuilt state's version is not the record's.
        Rejection: the rules service refused the steps or could not be reached.
    """
    if stored is None:
        stored = (await log_writer.read(match.match_id)).entries
    watched = SPECTATORS in match.perspectives
    reply = await rules.restore(match.match_id, match.created, restore_steps(stored), watched)
    if reply.version != match.version or reply.state_sha256 != match.state_sha256:
        raise RestoreMismatch(
            f"{match.match_id}: the log rebuilds version {reply.version}, "
            f"the record stands at {match.version}"
        )
    match.show(reply.perspectives)
