"""The store on SQLite and PostgreSQL: migrations, entrants, results once, final standings,
the cap on a creator's open tournaments."""

from __future__ import annotations

import asyncio
import dataclasses

from games.registry import BID
from services.common.database import Database, Target
from services.common.identity import PlayerId
from services.tournaments.migrations import MIGRATIONS, migrate
from services.tournaments.model import (
    Entrant,
    GameStatus,
    Status,
    Tournament,
    TournamentGame,
    TournamentId,
)
from services.tournaments.standings import rank
from services.tournaments.store import Store

TID = TournamentId("t1")


def tournament(
    tid: str = "t1", starts_at_ms: int = 1_000, status: Status = Status.UPCOMING
) -> Tournament:
    return Tournament(
        TournamentId(tid), "Evening arena", BID, True, starts_at_ms, 60, status, "Ann", ANN
    )


ANN = PlayerId("ann")


async def test_migrating_again_applies_nothing(store: Store) -> None:
    assert await store.migrate() == ()


async def test_a_tournament_reads_back_as_created(store: Store) -> None:
    await store.create(tournament(), 500)
    assert await store.tournament("t1") == tournament()
    assert await store.tournament("nope") is None


async def test_listing_puts_unfinished_by_start_then_finished_newest_first(store: Store) -> None:
    await store.create(tournament("late", 3_000), 0)
    await store.create(tournament("early", 2_000), 0)
    await store.create(tournament("old", 1_000, Status.FINISHED), 0)
    await store.create(tournament("recent", 4_000, Status.FINISHED), 0)
    listed = await store.tournaments([], 10)
    assert [t.id for t in listed] == ["early", "late", "recent", "old"]
    assert [t.id for t in await store.tournaments([Status.FINISHED], 1)] == ["recent"]


async def test_withdrawing_and_joining_again_keeps_the_entry(store: Store) -> None:
    await store.create(tournament(), 0)
    ann = Entrant(PlayerId("ann"), "Ann", 10)
    await store.join(TID, ann)
    assert await store.withdraw(TID, PlayerId("ann"))
    assert not await store.withdraw(TID, PlayerId("ann"))
    assert not await store.withdraw(TID, PlayerId("bob"))
    assert await store.entrants(TID) == [Entrant(PlayerId("ann"), "Ann", 10, withdrawn=True)]
    await store.join(TID, Entrant(PlayerId("ann"), "Ann", 99))
    assert await store.entrants(TID) == [ann]


async def test_a_result_counts_once_and_results_of_other_matches_are_ignored(store: Store) -> None:
    await store.create(tournament(), 0)
    players = (PlayerId("ann"), PlayerId("bob"))
    await store.add_game(TID, TournamentGame("m1", players, 100))
    assert await store.record_result("m1", GameStatus.FINISHED, 1, 200) == TID
    assert await store.record_result("m1", GameStatus.VOIDED, None, 300) is None
    assert await store.record_result("elsewhere", GameStatus.FINISHED, 0, 300) is None
    assert await store.games(TID) == [
        TournamentGame("m1", players, 100, GameStatus.FINISHED, 1, 200)
    ]


async def test_a_game_that_did_not_open_is_forgotten(store: Store) -> None:
    await store.create(tournament(), 0)
    await store.add_game(TID, TournamentGame("m1", (PlayerId("a"), PlayerId("b")), 100))
    await store.forget_game("m1")
    assert await store.games(TID) == []


async def test_games_still_playing_at_the_overtime_are_abandoned(store: Store) -> None:
    await store.create(tournament(), 0)
    await store.add_game(TID, TournamentGame("m1", (PlayerId("a"), PlayerId("b")), 100))
    await store.add_game(TID, TournamentGame("m2", (PlayerId("c"), PlayerId("d")), 100))
    await store.record_result("m2", GameStatus.FINISHED, 0, 150)
    assert await store.abandon_playing(TID, 900) == 1
    assert [g.status for g in await store.games(TID)] == [GameStatus.ABANDONED, GameStatus.FINISHED]


async def test_final_standings_are_stored_with_the_finished_status(store: Store) -> None:
    await store.create(tournament(), 0)
    entrants = [Entrant(PlayerId(n), n.upper(), 0) for n in ("a", "b", "c")]
    for entrant in entrants:
        await store.join(TID, entrant)
    await store.add_game(TID, TournamentGame("m1", (PlayerId("a"), PlayerId("b")), 10))
    await store.record_result("m1", GameStatus.FINISHED, 1, 20)
    lines = rank(await store.entrants(TID), await store.games(TID))
    await store.finish(TID, lines)
    stored = await store.final_standings(TID)
    assert [(s.rank, s.player_id, s.score, s.reached_at_ms) for s in stored] == [
        (s.rank, s.player_id, s.score, s.reached_at_ms) for s in lines
    ]
    finished = await store.tournament("t1")
    assert finished is not None and finished.status is Status.FINISHED


async def test_a_creator_at_the_cap_creates_nothing_until_one_has_finished(store: Store) -> None:
    assert await store.create_within(tournament("a"), 0, 2) == 0
    assert await store.create_within(tournament("b", status=Status.LIVE), 0, 2) == 1
    assert await store.create_within(tournament("c"), 0, 2) == 2
    assert await store.tournament("c") is None
    await store.set_status(TournamentId("b"), Status.ENDING)  # ending is not finished yet
    assert await store.create_within(tournament("c"), 0, 2) == 2
    await store.finish(TournamentId("b"), [])
    assert await store.create_within(tournament("c"), 0, 2) == 1
    assert await store.tournament("c") == tournament("c")


async def test_the_cap_counts_each_creator_alone(store: Store) -> None:
    for tid in ("a", "b"):
        await store.create_within(tournament(tid), 0, 2)
    bob = dataclasses.replace(tournament("c"), created_by="Bob", creator_id=PlayerId("bob"))
    assert await store.create_within(bob, 0, 2) == 0
    assert await store.tournament("c") == bob


async def test_creations_at_once_never_pass_the_cap_together(store: Store) -> None:
    held = await asyncio.gather(
        *(store.create_within(tournament(f"t{n}"), 0, 2) for n in range(10))
    )
    assert sorted(held) == [0, 1] + [2] * 8
    assert len(await store.tournaments([], 50)) == 2


async def test_tournaments_from_before_the_creator_column_belong_to_nobody(
    target: Target,
) -> None:
    database = Database(target)
    await database.open()
    try:
        await database.run(lambda s: migrate(s, 0.0, MIGRATIONS[:1]))
        await database.run(
            lambda s: s.execute(
                "INSERT INTO tournaments (tournament_id, name, game, rated, starts_at_ms,"
                " duration_s, status, created_by, created_at_ms)"
                " VALUES ('old', 'Old arena', 2, 1, 1000, 60, 1, 'Ann', 0)"
            )
        )
        store = Store(database)
        assert await store.migrate() == (2,)
        old = await store.tournament("old")
        assert old is not None and (old.created_by, old.creator_id) == ("Ann", "")
        assert await store.create_within(tournament("a"), 0, 1) == 0
    finally:
        await database.close()
