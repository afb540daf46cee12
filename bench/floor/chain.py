"""The design's floor: the fewest hops a command can take while the design holds.

Where ``bench.floor.relay`` is one hop (the gateway, a relay, back), this is the shortest
path that keeps what DESIGN.md and #14 require of every command: the arbitration stamps
and orders it, the log stores it before anyone sees what it did, and the rules service
(a separate process) decides what each seat sees. Each part does nothing else:

- ``PF_FLOOR_ROLE=stamp`` stands where the arbitration stands: it takes the gateway's
  ``Submits`` batch, stamps and numbers each command and appends it to a JetStream stream
  (one message per command, all in one write, no acknowledgement awaited or read);
- nats-server stores each one and only then delivers it to a push consumer;
- ``PF_FLOOR_ROLE=judge`` stands where the rules service stands: for each stored command
  it publishes an update to both seats and the command's answer to the gateway.

Both hold their NATS writes as the arbitration does (``PF_NATS_COALESCE_MS``): in the
stack, what each sends (the stored commands; the updates and answers) is the arbitration's.

No game, no clock, no fence, no views: one Python wake fewer than the stack (the
stamper never hears back), and a store in place of its acknowledged append. What this
costs is the least any design that honours those rules could cost here. With
``PF_FLOOR_RULES=views`` (``--shape judged``) the judge steps real matches and sends real
views (``bench.floor.rules_judge``): what that shape would cost with the game in it; with
``PF_FLOOR_RULES=changes`` (``--shape changes``), the same with views sent as changes.
"""

from __future__ import annotations

import os
import time

import grpc

from bench.floor.relay import INSTANCE, LIVE, Relay
from bench.floor.rules_judge import FACTS_SUBJECT, ChangesJudge, RulesJudge, on_facts
from bench.floor.stored import Stored
from photofinish.arbitration.v1 import arbitration_pb2, arbitration_pb2_grpc
from runtime import loops
from runtime.stopping import wait_for_stop_signal
from services.common.natslink.frames import Message
from services.common.natslink.link import NatsLink
from services.common.settings import nats_coalesce_s
from wire import subjects

STREAM = "FLOORLOG"
LOG_SUBJECTS = "floorlog.>"
JUDGE_SUBJECT = "floor.judge"  # the push consumer's deliver subject


class Stamper(Relay):
    """Stamps, numbers and stores each command; never waits for anything."""

    def on_batch(self, message: Message) -> None:
        arrival_ns = time.monotonic_ns()
        batch = arbitration_pb2.Submits.FromString(message.data)
        for index, forwarded in enumerate(batch.submits):
            match_id = forwarded.request.match_id
            seq = self._seqs.get(match_id, 0) + 1
            self._seqs[match_id] = seq
            forwarded.received_ns = arrival_ns
            stored = Stored(message.reply, index, seq, match_id, forwarded)
            self._link.publish(f"floorlog.{match_id}", stored.encode())


class Judge:
    """Sends both seats an update, and the gateway its answer, for each stored command."""

    def __init__(self, link: NatsLink) -> None:
        self._link = link

    def on_stored(self, message: Message) -> None:
        stored = Stored.decode(message.data)
        updates = [
            arbitration_pb2.MatchUpdate(
                match_id=stored.match_id, seq=stored.seq, seat=seat, status=LIVE
            ).SerializeToString()
            for seat in (0, 1)
        ]
        self._link.publish(subjects.match_seats(stored.match_id), stored.updates(updates))
        if not stored.command.follows:
            self._link.publish(stored.reply, stored.answer())


async def main() -> None:
    role = os.environ["PF_FLOOR_ROLE"]
    # What both send is, in the stack, the arbitration's: their writes coalesce as its do.
    coalesce_s = nats_coalesce_s(os.environ)
    link = await NatsLink.connect(os.environ["NATS_URL"], f"floor-{role}", coalesce_s=coalesce_s)
    server = None
    rules = os.environ.get("PF_FLOOR_RULES", "")  # bench.floor.rules_judge: "views", "changes"
    if role == "stamp":
        stamper = Stamper(link)
        link.subscribe(subjects.submits(INSTANCE), stamper.on_batch)
        link.subscribe(subjects.SUBMITS_ANY, stamper.on_batch, queue=subjects.ARBITRATION_QUEUE)
        if rules:
            link.subscribe(FACTS_SUBJECT, on_facts)
        server = grpc.aio.server()  # the Watch streams' first GetUpdate
        arbitration_pb2_grpc.add_ArbitrationServicer_to_server(stamper, server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        ready = f"READY stamp grpc={port}"
    else:
        judges = {"views": RulesJudge, "changes": ChangesJudge}
        every_step = os.environ.get("PF_FLOOR_FACTS") == "every"  # else a clocked step's
        judge = judges[rules](link, every_step) if rules else Judge(link)
        link.subscribe(JUDGE_SUBJECT, judge.on_stored)
        ready = "READY judge"
    await link.flush()
    print(ready, flush=True)
    try:
        await wait_for_stop_signal()
    finally:
        if server is not None:
            await server.stop(0.5)
        await link.close()


if __name__ == "__main__":
    loops.run(main())
