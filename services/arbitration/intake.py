"""A player's command taken in: checked against its seat, stamped, queued for its match.

Both ways in call :func:`take_in` with the arrival stamp they took before anything was
awaited: the gateway's batches over NATS (``submits``) and the gRPC Submit (``servicer``).
"""

from __future__ import annotations

from photofinish.arbitration.v1 import arbitration_pb2
from services.arbitration.match import Match, Submission
from services.arbitration.matches import Matches
from services.arbitration.refusals import Reason, refuse
from services.common.replies import Reply


def take_in(
    matches: Matches,
    request: arbitration_pb2.SubmitRequest,
    player_id: str,
    received_ns: int | None,
    arrival_ns: int,
    reply: Reply,
) -> None:
    """Queue the command for its match's worker, which answers it through ``reply``.

    Raises:
        Rejection: NOT_FOUND for a match this instance does not hold, PERMISSION_DENIED
            for a seat that is not the caller's, INVALID_ARGUMENT for a client_seq below 1.
    """
    match = seated(matches, request.match_id, request.seat, player_id)
    if request.client_seq <= 0:
        raise refuse(Reason.BAD_CLIENT_SEQ, "client_seq must be 1 or more")
    matches.forwarded(match, received_ns, arrival_ns)
    match.queue.put_nowait(
        Submission(arrival_ns, request.seat, request.client_seq, request.command, reply)
    )


def seated(matches: Matches, match_id: str, seat: int, player_id: str) -> Match:
    """Return the match where ``player_id`` holds ``seat``.

    Raises:
        Rejection: NOT_FOUND (no such match here), UNAUTHENTICATED (no player named) or
            PERMISSION_DENIED (not the caller's seat).
    """
    match = matches.get(match_id)
    if not player_id:
        raise refuse(Reason.UNAUTHENTICATED, "no player named")
    if seat not in match.player_seats(player_id):
        raise refuse(
            Reason.NOT_YOUR_SEAT,
            f"seat {seat} of match {match_id} is not yours",
        )
    return match
