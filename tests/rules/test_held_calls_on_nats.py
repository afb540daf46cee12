"""A rules instance on NATS whose answers to stored commands are held a moment (several in
one write) still answers a direct call at once: an opening, a restore, a flag's forfeit
wait for no other message."""

from __future__ import annotations

from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2
from services.common.natslink.link import NatsLink
from services.common.natslink.requests import NoResponders, Requests
from services.rules.held_calls import HeldCallServer
from services.rules.held_matches import HeldMatches
from services.stack.natsd import NatsServer
from wire import subjects

HOUR_S = 3600.0  # held this long, an answer would never come within a test


async def test_a_holding_rules_instance_answers_a_direct_call_at_once(
    nats_server: NatsServer,
) -> None:
    link = await NatsLink.connect(nats_server.url, "rules-held", coalesce_s=HOUR_S)
    server = HeldCallServer(link, HeldMatches(0), "held")
    server.start()
    await link.flush()  # its subscriptions, sent at once
    caller = await NatsLink.connect(nats_server.url, "arbitration-test")
    requests = Requests(caller)
    await caller.flush()
    opening = rules_pb2.NewMatchRequest(game=game_pb2.GAME_SPIT, seed=7)
    calls = rules_pb2.HeldCalls(calls=[rules_pb2.HeldCall(match_id="m-1", open=opening)])
    try:
        # A subscription may take a moment to be routed to (tests/common/test_natslink.py):
        # asked again while nobody is heard of, never again once the answer is held.
        for _ in range(50):
            try:
                reply = await requests.send(
                    subjects.rules_calls("held"), calls.SerializeToString(), 10.0
                )
                break
            except NoResponders:
                await caller.flush()
        else:
            raise AssertionError("the rules instance was never reachable")
        answers = rules_pb2.HeldAnswers.FromString(reply.data)
        assert answers.holder == "held"
        (answer,) = answers.answers
        assert answer.HasField("step"), answer
    finally:
        server.stop()
        await caller.close()
        await link.close()
