"""What the log keeps of refused commands is bounded per seat: past the bound a refusal is
answered and kept for its retries but not stored, the log still replays to the same state,
and the seat plays on."""

from __future__ import annotations

from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.arbitration import referee
from services.common.rejection import Rejection
from tests.arbitration.harness import Table
from tools.replay import replay

EMPTY = game_pb2.Command()  # refused: bad_command
READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))


async def test_refusals_past_the_bound_are_answered_but_not_stored() -> None:
    table = Table(game_pb2.GAME_BID, 5)
    await table.open()
    bound = referee.REFUSALS_LOGGED_PER_SEAT
    for _ in range(bound + 40):
        answer = await table.submit(0, EMPTY)
        assert isinstance(answer, Rejection) and answer.reason == "bad_command"
    retried = await table.submit(0, EMPTY, client_seq=table.client_seq[0])  # a retry
    assert isinstance(retried, Rejection) and retried.reason == "bad_command"
    log = await table.log()
    refused = [e for e in log if e.kind == log_pb2.ENTRY_KIND_REFUSED and e.seat == 0]
    assert len(refused) == bound
    reply = await table.submit(0, READY)  # the seat plays on
    assert isinstance(reply, arbitration_pb2.SubmitReply)
    assert replay(await table.log(), live=True).identical  # the match goes on
    await table.close()
