"""The floor's relay: what stands where the arbitration and the rules stand, doing nothing.

``python -m bench.floor.relay`` takes the gateway's Submits from NATS exactly as the
arbitration does (the ``Submits`` batches on ``pf.arbitration.submit``, over the same lean
link), numbers each command, publishes an update to both seats' subjects and answers it,
all in the read that brought it; it answers the Watch streams' first GetUpdate over gRPC.
No game, no clock, no log, no rules service: one NATS hop from the gateway and back. What
a command costs the gateway, this relay and nats-server here is the least any design built
from these parts could cost (bench.stack prints the stack's figure as a multiple of it).
"""

from __future__ import annotations

import os

import grpc

from bench.floor.stored import seat_updates
from photofinish.arbitration.v1 import arbitration_pb2, arbitration_pb2_grpc, log_pb2, replay_pb2
from runtime import loops
from runtime.stopping import wait_for_stop_signal
from services.common.natslink.frames import Message
from services.common.natslink.link import NatsLink
from wire import subjects

LIVE = arbitration_pb2.STATUS_LIVE
INSTANCE = "relay"  # the owner the floor's matches are recorded with (bench/floor/run.py)


class Relay(arbitration_pb2_grpc.ArbitrationServicer):
    """Numbers each match's commands and sends both seats an update for each."""

    def __init__(self, link: NatsLink) -> None:
        self._link = link
        self._seqs: dict[str, int] = {}

    def on_batch(self, message: Message) -> None:
        batch = arbitration_pb2.Submits.FromString(message.data)
        answers = []
        for index, forwarded in enumerate(batch.submits):
            match_id = forwarded.request.match_id
            seq = self._seqs.get(match_id, 0) + 1
            self._seqs[match_id] = seq
            updates = [
                arbitration_pb2.MatchUpdate(
                    match_id=match_id, seq=seq, seat=seat, status=LIVE
                ).SerializeToString()
                for seat in (0, 1)
            ]
            reply = arbitration_pb2.SubmitReply(seq=seq)
            answer = arbitration_pb2.SubmitAnswer(index=index, reply=reply)
            if not forwarded.follows:  # as the arbitration does: else with the update
                answers.append(answer)
            riding = message.reply if forwarded.follows else ""
            self._link.publish(
                subjects.match_seats(match_id), seat_updates(updates, riding, answer)
            )
        if answers:
            data = arbitration_pb2.SubmitAnswers(answers=answers).SerializeToString()
            self._link.publish(message.reply, data)

    async def Submit(
        self,
        request: arbitration_pb2.SubmitRequest,
        context: grpc.aio.ServicerContext[object, object],
    ) -> arbitration_pb2.SubmitReply:
        await context.abort(grpc.StatusCode.UNIMPLEMENTED, "the floor takes Submits over NATS")
        raise AssertionError("abort raises")

    async def GetMatchLog(
        self,
        request: log_pb2.GetMatchLogRequest,
        context: grpc.aio.ServicerContext[object, object],
    ) -> log_pb2.MatchLog:
        await context.abort(grpc.StatusCode.UNIMPLEMENTED, "the floor keeps no log")
        raise AssertionError("abort raises")

    async def GetReplay(
        self,
        request: replay_pb2.GetReplayRequest,
        context: grpc.aio.ServicerContext[object, object],
    ) -> replay_pb2.Replay:
        await context.abort(grpc.StatusCode.UNIMPLEMENTED, "the floor keeps no log")
        raise AssertionError("abort raises")

    async def GetUpdate(
        self,
        request: arbitration_pb2.GetUpdateRequest,
        context: grpc.aio.ServicerContext[object, object],
    ) -> arbitration_pb2.MatchUpdate:
        seq = self._seqs.get(request.match_id, 0)
        return arbitration_pb2.MatchUpdate(
            match_id=request.match_id, seq=seq, seat=request.seat, status=LIVE
        )


async def main() -> None:
    link = await NatsLink.connect(os.environ["NATS_URL"], "floor-relay")
    relay = Relay(link)
    link.subscribe(subjects.submits(INSTANCE), relay.on_batch)
    link.subscribe(subjects.SUBMITS_ANY, relay.on_batch, queue=subjects.ARBITRATION_QUEUE)
    server = grpc.aio.server()
    arbitration_pb2_grpc.add_ArbitrationServicer_to_server(relay, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    await link.flush()
    print(f"READY relay grpc={port}", flush=True)
    try:
        await wait_for_stop_signal()
    finally:
        await server.stop(0.5)
        await link.close()


if __name__ == "__main__":
    loops.run(main())
