"""The service against a real nats-server: pairing rounds, results once, the end and the record.

The parts are wired as the process wires them (store, hub, NATS broker, director, results
consumer, gRPC servicer), with arbitration played by a NATS responder and the director's
clock in the test's hands, so rounds run when the test says and nothing sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import grpc
import nats
import pytest
from nats.js import JetStreamContext

from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from photofinish.tournaments.v1 import tournaments_pb2 as pb
from photofinish.tournaments.v1 import tournaments_pb2_grpc
from services.common.identity import PlayerId
from services.common.opening.request import NatsArbitration
from services.common.rejection import from_rpc_error
from services.common.results import declare
from services.common.serving import Listen, grpc_server
from services.stack.natsd import NatsServer
from services.tournaments.consumer import consume
from services.tournaments.director import Director, wall_ms
from services.tournaments.hub import Hub
from services.tournaments.servicer import TournamentsServicer
from services.tournaments.store import Store
from tests.matchmaking.responders import ArbitrationStandIn, listen_as_arbitration
from wire.subjects import RESULTS_FINISHED, RESULTS_VOIDED, TOURNAMENTS_CONSUMER

WAIT_S = 20.0


@dataclass(slots=True)
class Rig:
    stub: Any
    director: Director
    arbitration: ArbitrationStandIn
    js: JetStreamContext
    store: Store
    shift_ms: list[int]

    def who(self, name: str, guest: bool = False) -> tuple[tuple[str, str], ...]:
        """The player as the gateway names them: an account's session, or a guest."""
        named = (("x-pf-player-id", f"id-{name}"), ("x-pf-player-name", name))
        return named if guest else (*named, ("x-pf-session-id", f"s_{name}"))

    async def join(self, tid: str, *names: str, guest: bool = False) -> None:
        for name in names:
            await self.stub.JoinTournament(
                pb.JoinTournamentRequest(tournament_id=tid), metadata=self.who(name, guest)
            )

    async def record(self, tid: str) -> pb.TournamentRecord:
        request = pb.GetTournamentRequest(tournament_id=tid)
        record: pb.TournamentRecord = await self.stub.GetTournament(request, metadata=self.who("x"))
        return record

    async def finish(self, match_id: str, winner: int, msg_id: str = "") -> None:
        finished = events_pb2.MatchFinished(match_id=match_id, rated=True)
        finished.outcome.winner = winner
        headers = {"Nats-Msg-Id": msg_id or match_id}
        await self.js.publish(RESULTS_FINISHED, finished.SerializeToString(), headers=headers)

    async def void(self, match_id: str) -> None:
        voided = events_pb2.MatchVoided(match_id=match_id, reason="loop_stall")
        await self.js.publish(
            RESULTS_VOIDED, voided.SerializeToString(), headers={"Nats-Msg-Id": match_id}
        )

    async def until_ended(self, tid: str, count: int) -> pb.TournamentRecord:
        """Return the record once ``count`` of its games have a result."""
        async with asyncio.timeout(WAIT_S):
            while True:
                record = await self.record(tid)
                ended = [g for g in record.games if g.status != pb.GAME_STATUS_PLAYING]
                if len(ended) >= count:
                    return record
                await asyncio.sleep(0.02)


@pytest.fixture
async def rig(store: Store, nats_server: NatsServer) -> AsyncIterator[Rig]:
    connection = await nats.connect(nats_server.url)
    js = connection.jetstream()
    await declare(js, ack_wait_s=1.0, durable=TOURNAMENTS_CONSUMER)
    arbitration = ArbitrationStandIn()
    await listen_as_arbitration(connection, arbitration)
    shift_ms = [0]
    director = Director(
        store,
        Hub(),
        NatsArbitration(connection, 2.0, "tournaments"),
        1.0,
        5.0,
        lambda: wall_ms() + shift_ms[0],
    )
    servicer = TournamentsServicer(store, director.hub, director)

    def register(server: grpc.aio.Server) -> list[str]:
        tournaments_pb2_grpc.add_TournamentsServicer_to_server(servicer, server)
        return [pb.DESCRIPTOR.services_by_name["Tournaments"].full_name]

    consumer = asyncio.create_task(consume(js, store, lambda _: None, idle_s=0.1))
    async with (
        grpc_server(Listen("127.0.0.1", 0, 0, 0.1), register) as (_, port, _),
        grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
    ):
        stub = tournaments_pb2_grpc.TournamentsStub(channel)
        yield Rig(stub, director, arbitration, js, store, shift_ms)
    consumer.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await consumer
    await connection.close()


async def create(rig: Rig, duration_s: int = 60, rated: bool = True) -> str:
    request = pb.CreateTournamentRequest(
        name="Test arena", game=game_pb2.GAME_BID, rated=rated, duration_s=duration_s
    )
    created = await rig.stub.CreateTournament(request, metadata=rig.who("ann"))
    assert created.status == pb.STATUS_UPCOMING
    return str(created.tournament_id)


async def test_rated_tournaments_are_for_accounts_casual_ones_for_guests_too(rig: Rig) -> None:
    rated, casual = await create(rig), await create(rig, rated=False)
    for tid in (rated, casual):
        await rig.join(tid, "ann")
    request = pb.JoinTournamentRequest(tournament_id=rated)
    gus = rig.who("gus", guest=True)
    assert await reason(rig.stub.JoinTournament(request, metadata=gus)) == (
        grpc.StatusCode.PERMISSION_DENIED,
        "account_needed",
    )
    await rig.stub.JoinTournament(pb.JoinTournamentRequest(tournament_id=casual), metadata=gus)
    new = pb.CreateTournamentRequest(
        name="Guests", game=game_pb2.GAME_BID, rated=True, duration_s=60
    )
    assert (await reason(rig.stub.CreateTournament(new, metadata=gus)))[1] == "account_needed"
    assert [s.name for s in (await rig.record(rated)).standings.standings] == ["ann"]
    assert {s.name for s in (await rig.record(casual)).standings.standings} == {"ann", "gus"}


async def test_a_guest_is_marked_in_the_standings_and_at_the_match(rig: Rig) -> None:
    tid = await create(rig, rated=False)
    await rig.join(tid, "ann")
    await rig.join(tid, "gus", guest=True)
    lines = (await rig.record(tid)).standings.standings
    assert {s.name: (s.guest, s.deleted) for s in lines} == {
        "ann": (False, False),
        "gus": (True, False),
    }
    await rig.director.round(pairing=True)
    [created] = rig.arbitration.received
    assert {p.player_id: (p.name, p.guest) for p in created.players} == {
        "id-ann": ("ann", False),
        "id-gus": ("gus", True),
    }


async def test_a_tournament_from_pairing_to_final_standings(rig: Rig) -> None:
    tid = await create(rig)
    await rig.join(tid, "ann", "bob", "cat", "dan")
    watch = rig.stub.WatchTournament(
        pb.WatchTournamentRequest(tournament_id=tid), metadata=rig.who("ann")
    )
    first = await watch.read()
    assert len(first.standings.standings) == 4

    await rig.director.round(pairing=True)
    assert len(rig.arbitration.received) == 2
    assert all(created.rated for created in rig.arbitration.received)
    record = await rig.record(tid)
    assert record.standings.tournament.status == pb.STATUS_LIVE
    assert sum(s.playing for s in record.standings.standings) == 4
    update = await watch.read()
    while not update.HasField("match"):
        update = await watch.read()
    ann_game = next(g for g in record.games if "id-ann" in g.player_ids)
    assert update.match.match_id == ann_game.match_id
    assert list(update.match.seats) == [list(ann_game.player_ids).index("id-ann")]

    # Ann wins; the other game is voided. A redelivered result changes nothing.
    other = next(g for g in record.games if g is not ann_game)
    ann_seat = list(ann_game.player_ids).index("id-ann")
    await rig.finish(ann_game.match_id, ann_seat)
    await rig.finish(ann_game.match_id, 1 - ann_seat, msg_id="again")
    await rig.void(other.match_id)
    record = await rig.until_ended(tid, 2)
    lines = {s.player_id: s for s in record.standings.standings}
    assert (lines["id-ann"].points, lines["id-ann"].games) == (2, 1)
    assert record.standings.standings[0].player_id == "id-ann"
    voided = set(other.player_ids)
    assert all(lines[p].games == 0 and lines[p].points == 0 for p in voided)

    # The next round avoids rematches: every new pair is new.
    await rig.director.round(pairing=True)
    record = await rig.record(tid)
    first_pairs = {frozenset(g.player_ids) for g in record.games[:2]}
    second_pairs = {frozenset(g.player_ids) for g in record.games[2:]}
    assert len(second_pairs) == 2 and not first_pairs & second_pairs

    # Past the end: no pairing, games in progress finish and count, then the record.
    rig.shift_ms[0] = 61_000
    await rig.director.round(pairing=True)
    assert len(rig.arbitration.received) == 4
    record = await rig.record(tid)
    assert record.standings.tournament.status == pb.STATUS_ENDING
    for game in record.games[2:]:
        await rig.finish(game.match_id, 0)
    await rig.until_ended(tid, 4)
    await rig.director.round(pairing=True)
    final = await rig.record(tid)
    assert final.standings.tournament.status == pb.STATUS_FINISHED
    assert sum(s.games for s in final.standings.standings) == 2 * 3
    last = await watch.read()
    while last.standings.tournament.status != pb.STATUS_FINISHED:
        last = await watch.read()
    assert last.standings == final.standings
    assert await watch.read() == grpc.aio.EOF


async def test_games_without_a_result_by_the_end_of_the_overtime_count_for_nobody(
    rig: Rig,
) -> None:
    tid = await create(rig)
    await rig.join(tid, "ann", "bob")
    await rig.director.round(pairing=True)
    rig.shift_ms[0] = 60_000 + 5_000
    await rig.director.round(pairing=True)
    record = await rig.record(tid)
    assert record.standings.tournament.status == pb.STATUS_FINISHED
    assert [g.status for g in record.games] == [pb.GAME_STATUS_ABANDONED]
    assert all(s.games == 0 for s in record.standings.standings)
    # Watching a finished tournament: its final standings, then the end of the stream.
    watch = rig.stub.WatchTournament(
        pb.WatchTournamentRequest(tournament_id=tid), metadata=rig.who("ann")
    )
    assert (await watch.read()).standings == record.standings
    assert await watch.read() == grpc.aio.EOF


async def test_withdrawn_players_are_not_paired(rig: Rig) -> None:
    tid = await create(rig)
    await rig.join(tid, "ann", "bob", "cat")
    await rig.stub.WithdrawTournament(
        pb.WithdrawTournamentRequest(tournament_id=tid), metadata=rig.who("cat")
    )
    await rig.director.round(pairing=True)
    record = await rig.record(tid)
    assert [set(g.player_ids) for g in record.games] == [{"id-ann", "id-bob"}]
    assert record.standings.tournament.entrants == 2


async def test_a_failed_open_leaves_the_players_idle(rig: Rig) -> None:
    rig.arbitration.silent = True
    tid = await create(rig)
    await rig.join(tid, "ann", "bob")
    await rig.director.round(pairing=True)
    assert (await rig.record(tid)).games == []


async def test_a_player_hears_of_a_game_only_once_arbitration_has_opened_it(rig: Rig) -> None:
    # A player who starts watching while their game is stored but its match not yet
    # opened would watch a match the arbitration does not know ("unknown_match").
    rig.arbitration.held = asyncio.Event()
    tid = await create(rig)
    await rig.join(tid, "ann", "bob")
    pairing = asyncio.create_task(rig.director.round(pairing=True))
    async with asyncio.timeout(WAIT_S):
        while not rig.arbitration.received:
            await asyncio.sleep(0.01)
    watch = rig.stub.WatchTournament(
        pb.WatchTournamentRequest(tournament_id=tid), metadata=rig.who("ann")
    )
    first = await watch.read()
    assert first.HasField("standings")
    t = await rig.store.tournament(tid)
    assert t is not None
    assert await rig.director.current_match(t, PlayerId("id-ann")) is None  # stored, not yet opened

    rig.arbitration.held.set()
    await pairing
    update = await watch.read()
    while not update.HasField("match"):
        update = await watch.read()
    assert update.match.match_id == rig.arbitration.received[0].match_id
    game = await rig.director.current_match(t, PlayerId("id-ann"))
    assert game is not None and game.match_id == update.match.match_id
    watch.cancel()


async def reason(call: Any) -> tuple[grpc.StatusCode, str]:
    """The refused call's status code and reason."""
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await call
    refusal = from_rpc_error(error.value)
    return refusal.code, refusal.reason


async def refused(call: Any) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await call
    return error.value.code(), str(error.value.details())


async def test_bad_requests_change_nothing_and_say_why(rig: Rig) -> None:
    bad = pb.CreateTournamentRequest(name=" ", game=game_pb2.GAME_SPIT, duration_s=60)
    code, _ = await refused(rig.stub.CreateTournament(bad, metadata=rig.who("ann")))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    short = pb.CreateTournamentRequest(name="A", game=game_pb2.GAME_SPIT, duration_s=5)
    code, details = await refused(rig.stub.CreateTournament(short, metadata=rig.who("ann")))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "duration" in details
    no_game = pb.CreateTournamentRequest(name="A", duration_s=60)
    code, _ = await refused(rig.stub.CreateTournament(no_game, metadata=rig.who("ann")))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    code, _ = await refused(rig.stub.CreateTournament(short))
    assert code == grpc.StatusCode.UNAUTHENTICATED
    assert (await rig.stub.ListTournaments(pb.ListTournamentsRequest())).tournaments == []

    join = pb.JoinTournamentRequest(tournament_id="nope")
    code, _ = await refused(rig.stub.JoinTournament(join, metadata=rig.who("ann")))
    assert code == grpc.StatusCode.NOT_FOUND
    tid = await create(rig)
    withdraw = pb.WithdrawTournamentRequest(tournament_id=tid)
    code, _ = await refused(rig.stub.WithdrawTournament(withdraw, metadata=rig.who("ann")))
    assert code == grpc.StatusCode.FAILED_PRECONDITION

    rig.shift_ms[0] = 70_000
    await rig.director.round(pairing=True)
    code, _ = await refused(
        rig.stub.JoinTournament(pb.JoinTournamentRequest(tournament_id=tid), metadata=rig.who("b"))
    )
    assert code == grpc.StatusCode.FAILED_PRECONDITION
    listed = await rig.stub.ListTournaments(
        pb.ListTournamentsRequest(statuses=[pb.STATUS_FINISHED])
    )
    assert [t.tournament_id for t in listed.tournaments] == [tid]


async def test_a_third_open_tournament_of_one_creator_is_refused_until_one_finishes(
    rig: Rig,
) -> None:
    short = await create(rig, duration_s=60)
    await create(rig, duration_s=3600)
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await create(rig)
    refusal = from_rpc_error(error.value)
    assert (refusal.code, refusal.reason) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "too_many_tournaments",
    )
    assert refusal.message == (
        "you have 2 tournaments that have not finished, the most at once:"
        " create another once one has finished"
    )
    assert len((await rig.stub.ListTournaments(pb.ListTournamentsRequest())).tournaments) == 2
    stored = await rig.store.tournament(short)
    assert stored is not None and stored.creator_id == "id-ann"

    other = pb.CreateTournamentRequest(name="Bob's", game=game_pb2.GAME_SPIT, duration_s=60)
    await rig.stub.CreateTournament(other, metadata=rig.who("bob"))  # bob has his own two

    rig.shift_ms[0] = 70_000  # the 60 s ones end, with no game to wait for
    await rig.director.round(pairing=True)
    assert (await rig.record(short)).standings.tournament.status == pb.STATUS_FINISHED
    await create(rig)
