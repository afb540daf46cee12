"""The rules service, a real process, answers at once: its NATS writes are not held, even
where the arbitration's are (``PF_NATS_COALESCE_MS``). What it reads comes in the
arbitration's held writes already; a hold of its own would only delay every answer."""

from __future__ import annotations

import asyncio
from pathlib import Path

from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from photofinish.rules.v1 import rules_pb2
from services.common.natslink.frames import Message, header_block
from services.common.natslink.link import NatsLink
from services.common.natslink.requests import NoResponders, Requests
from services.common.stored_commands import REPLY
from services.stack.natsd import NatsServer
from services.stack.processes import start_child
from wire import subjects

HOUR_MS = "3600000"  # held this long, an answer would never come within a test
ANSWER_TIMEOUT_S = 30.0
READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))


async def test_the_rules_answer_a_stored_command_at_once_where_the_arbitration_holds_its_writes(
    nats_server: NatsServer, tmp_path: Path
) -> None:
    env = {"PF_HOST": "127.0.0.1", "PF_GRPC_PORT": "0", "PF_METRICS_PORT": "0"}
    env |= {"NATS_URL": nats_server.url, "PF_INSTANCE": "r1", "PF_NATS_COALESCE_MS": HOUR_MS}
    rules = await start_child("rules", "services.rules", env=env, log_dir=tmp_path)
    caller = await NatsLink.connect(nats_server.url, "arbitration-test")
    try:
        version = await _opened(Requests(caller), caller)
        answers: asyncio.Queue[Message] = asyncio.Queue()
        inbox = caller.new_inbox()
        caller.subscribe(inbox, answers.put_nowait)
        await caller.flush()
        entry = log_pb2.LogEntry(
            match_id="m1",
            kind=log_pb2.ENTRY_KIND_COMMAND,
            seat=0,
            version=version,
            client_seq=1,
            command=READY,
        )
        # As the log stream feeds a stored command to the instance that holds its match.
        caller.publish(
            subjects.judge("r1"), entry.SerializeToString(), headers=header_block({REPLY: inbox})
        )
        answer = await asyncio.wait_for(answers.get(), ANSWER_TIMEOUT_S)
        held = rules_pb2.HeldAnswers.FromString(answer.data)
        assert held.holder == "r1"
        (step,) = held.answers
        assert step.step.version == version + 1, step
    finally:
        await caller.close()
        assert await rules.stop() == 0


async def _opened(requests: Requests, caller: NatsLink) -> int:
    """Open Bid match "m1" on instance r1 with a direct call; return its version."""
    opening = rules_pb2.NewMatchRequest(game=game_pb2.GAME_BID, seed=7)
    calls = rules_pb2.HeldCalls(calls=[rules_pb2.HeldCall(match_id="m1", open=opening)])
    # A subscription may take a moment to be routed to (tests/common/test_natslink.py).
    for _ in range(50):
        try:
            reply = await requests.send(
                subjects.rules_calls("r1"), calls.SerializeToString(), ANSWER_TIMEOUT_S
            )
            break
        except NoResponders:
            await caller.flush()
    else:
        raise AssertionError("the rules instance was never reachable")
    (answer,) = rules_pb2.HeldAnswers.FromString(reply.data).answers
    assert answer.HasField("step"), answer
    return answer.step.version
