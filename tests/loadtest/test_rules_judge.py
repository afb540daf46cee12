"""The judged floor's judge (bench.floor.rules_judge) steps real matches: each stored
command gives both seats an update the gateway and a browser read as the arbitration's,
with the seat's own view, and the gateway its answer; a clocked game's step also tells
the stamper whose clock runs (every step does, with facts every step). Sending changes,
an update carries the seat's events and the decision, and a full view only every
``FULL_VIEW_EVERY`` steps."""

from __future__ import annotations

import asyncio

from bench.floor.rules_judge import FACTS_SUBJECT, FULL_VIEW_EVERY, ChangesJudge, RulesJudge
from bench.floor.stored import Stored
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from services.common.natslink.frames import Message
from services.common.natslink.link import NatsLink
from services.stack.natsd import NatsServer
from wire import subjects
from wire.updates import read_lead

REPLY = "floor.test.reply"


def stored(seq: int, match_id: str) -> Message:
    """Return a stored command as the log's push consumer delivers it to the judge."""
    forwarded = arbitration_pb2.ForwardedSubmit(
        request=arbitration_pb2.SubmitRequest(match_id=match_id, seat=0, client_seq=seq)
    )
    data = Stored(REPLY, 0, seq, match_id, forwarded).encode()
    return Message(sid=1, subject="floor.judge", reply="", data=data)


def seat_key(seat: int) -> str:
    return f"seat {seat}"


async def heard(
    nats_server: NatsServer,
    match_id: str,
    commands: int,
    judging: type[RulesJudge] = RulesJudge,
    facts_every_step: bool = False,
) -> dict[str, list[bytes]]:
    """Judge ``commands`` stored commands of ``match_id``; return what was sent, by subject."""
    link = await NatsLink.connect(nats_server.url, "test")
    got: dict[str, list[bytes]] = {}

    def seats(message: Message) -> None:  # each seat's update, as the gateway splits them
        for seat, update in enumerate(arbitration_pb2.SeatUpdates.FromString(message.data).updates):
            if update:
                got.setdefault(seat_key(seat), []).append(update)

    link.subscribe(subjects.match_seats(match_id), seats)
    link.subscribe(REPLY, lambda m: got.setdefault(m.subject, []).append(m.data))
    link.subscribe(FACTS_SUBJECT, lambda m: got.setdefault(m.subject, []).append(m.data))
    await link.flush()
    judge = judging(link, facts_every_step)
    for seq in range(1, commands + 1):
        judge.on_stored(stored(seq, match_id))
    await link.flush()
    for _ in range(100):
        if len(got.get(REPLY, [])) == commands:
            break
        await asyncio.sleep(0.01)
    await link.close()
    return got


async def test_each_stored_command_steps_the_match_and_updates_both_seats(
    nats_server: NatsServer,
) -> None:
    got = await heard(nats_server, "floor-0", 3)  # an even number: a Spit match
    for seat in (0, 1):
        updates = got[seat_key(seat)]
        leads = [read_lead(update) for update in updates]  # as the gateway reads them
        assert [(lead.seq, lead.status) for lead in leads if lead is not None] == [
            (seq, arbitration_pb2.STATUS_LIVE) for seq in (1, 2, 3)
        ]
        last = arbitration_pb2.MatchUpdate.FromString(updates[-1])  # as a browser reads it
        assert (last.seat, last.game) == (seat, game_pb2.GAME_SPIT)
        # The rules' own answer: the step's change, from the version before it.
        assert (last.version, last.since) == (3, 2)
        assert last.told.WhichOneof("kind") == "spit" and last.events
    answers = [arbitration_pb2.SubmitAnswers.FromString(data) for data in got[REPLY]]
    assert [a.answers[0].reply.seq for a in answers] == [1, 2, 3]
    assert FACTS_SUBJECT not in got  # Spit runs no clock


async def test_with_facts_every_step_an_unclocked_step_tells_the_stamper_too(
    nats_server: NatsServer,
) -> None:
    got = await heard(nats_server, "floor-2", 3, facts_every_step=True)  # a Spit match
    facts = [arbitration_pb2.MatchUpdate.FromString(data) for data in got[FACTS_SUBJECT]]
    assert [f.match_id for f in facts] == ["floor-2"] * 3


async def test_a_clocked_step_tells_the_stamper(nats_server: NatsServer) -> None:
    got = await heard(nats_server, "floor-1", 2)  # an odd number: a Bid match
    assert len(got[FACTS_SUBJECT]) == 2
    last = arbitration_pb2.MatchUpdate.FromString(got[seat_key(1)][-1])
    assert last.game == game_pb2.GAME_BID


async def test_changes_carry_events_and_the_decision_and_now_and_then_a_view(
    nats_server: NatsServer,
) -> None:
    got = await heard(nats_server, "floor-2", FULL_VIEW_EVERY, ChangesJudge)  # Spit
    updates = [arbitration_pb2.MatchUpdate.FromString(u) for u in got[seat_key(0)]]
    assert [u.seq for u in updates] == list(range(1, FULL_VIEW_EVERY + 1))
    assert all(u.HasField("decision") for u in updates)
    assert [u.HasField("view") for u in updates] == [False] * (FULL_VIEW_EVERY - 1) + [True]
    assert any(u.events for u in updates)  # the changes: what the seat heard
    assert updates[-1].view.spit.seat == 0
