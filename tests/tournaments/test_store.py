"""The store on SQLite and PostgreSQL: migrations, entrants, results once, final standings,
the cap on a creator's open tournaments, guests marked and deleted players' names forgotten."""

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
from services.tournaments.standings import Standing, rank
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
        assert await database.run(lambda s: migrate(s, 0.0, MIGRATIONS[:2])) == (2,)
        store = Store(database)
        await store.migrate()
        old = await store.tournament("old")
        assert old is not None and (old.created_by, old.creator_id) == ("Ann", "")
        assert await store.create_within(tournament("a"), 0, 1) == 0
    finally:
        await database.close()


async def test_entrants_from_before_are_guests_when_their_id_is_a_guests(target: Target) -> None:
    database = Database(target)
    await database.open()
    try:
        await database.run(lambda s: migrate(s, 0.0, MIGRATIONS[:2]))
        await Store(database).create(tournament(), 0)
        await database.run(
            lambda s: s.execute(
                "INSERT INTO entrants (tournament_id, player_id, name, joined_at_ms, withdrawn)"
                " VALUES ('t1', 'g_ann', 'Ann', 0, 0), ('t1', 'a_bob', 'Bob', 1, 0),"
                " ('t1', 'ag_cat', 'Cat', 2, 0), ('t1', 'G_dan', 'Dan', 3, 1)"
            )
        )
        await database.run(
            lambda s: s.execute(
                "INSERT INTO final_standings (tournament_id, rank, player_id, name, points,"
                " games, wins, streak, sheet, reached_at_ms, withdrawn)"
                " VALUES ('t1', 1, 'g_ann', 'Ann', 2, 1, 1, 1, '2', 9, 0),"
                " ('t1', 2, 'a_bob', 'Bob', 0, 1, 0, 0, '0', 1, 0)"
            )
        )
        assert await database.run(lambda s: migrate(s, 0.0, MIGRATIONS[:3])) == (3,)
        store = Store(database)
        await store.migrate()
        entrants = {e.player_id: e for e in await store.entrants(TID)}
        assert {p: e.guest for p, e in entrants.items()} == {
            "g_ann": True,
            "a_bob": False,
            "ag_cat": False,
            "G_dan": False,
        }
        assert not any(e.deleted for e in entrants.values())
        assert [(e.name, e.withdrawn) for e in entrants.values()] == [
            ("Ann", False),
            ("Bob", False),
            ("Cat", False),
            ("Dan", True),
        ]
        final = await store.final_standings(TID)
        assert [(s.name, s.score.points, s.guest, s.deleted) for s in final] == [
            ("Ann", 2, True, False),
            ("Bob", 0, False, False),
        ]
    finally:
        await database.close()


async def test_a_guest_who_joined_is_marked_in_the_live_and_final_standings(
    store: Store,
) -> None:
    await store.create(tournament(), 0)
    await store.join(TID, Entrant(PlayerId("g_gus"), "Gus", 10, guest=True))
    await store.join(TID, Entrant(ANN, "Ann", 20))
    live = rank(await store.entrants(TID), [])
    assert [(s.name, s.guest, s.deleted) for s in live] == [
        ("Gus", True, False),
        ("Ann", False, False),
    ]
    await store.finish(TID, live)
    final = await store.final_standings(TID)
    assert [(s.name, s.guest, s.deleted) for s in final] == [
        ("Gus", True, False),
        ("Ann", False, False),
    ]


async def test_joining_again_after_signing_up_is_no_longer_a_guests_entry(store: Store) -> None:
    await store.create(tournament(), 0)
    await store.join(TID, Entrant(PlayerId("g_gus"), "Gus", 10, guest=True))
    await store.withdraw(TID, PlayerId("g_gus"))
    await store.join(TID, Entrant(PlayerId("g_gus"), "Gus the member", 30))
    assert await store.entrants(TID) == [Entrant(PlayerId("g_gus"), "Gus", 10)]


async def played(store: Store, tid: str) -> TournamentId:
    """A tournament Ann, Bob (created it) and Cat entered, where Bob beat Ann."""
    t = dataclasses.replace(tournament(tid), created_by="Bob", creator_id=BOB)
    await store.create(t, 0)
    for entrant in (Entrant(ANN, "Ann", 0), Entrant(BOB, "Bob", 1), Entrant(CAT, "Cat", 2)):
        await store.join(t.id, entrant)
    await store.add_game(t.id, TournamentGame(f"{tid}-m1", (ANN, BOB), 10))
    await store.record_result(f"{tid}-m1", GameStatus.FINISHED, 1, 20)
    return t.id


BOB, CAT = PlayerId("bob"), PlayerId("cat")


async def test_forgetting_a_player_blanks_their_name_and_keeps_their_results(
    store: Store,
) -> None:
    live, done = await played(store, "live"), await played(store, "done")
    await store.finish(done, rank(await store.entrants(done), await store.games(done)))
    before = {tid: await standings(store, tid) for tid in (live, done)}

    await store.forget(BOB, 1_000.0)

    for tid in (live, done):
        after = await standings(store, tid)
        assert [(s.player_id, s.name, s.deleted) for s in after] == [
            (BOB, "", True),
            (ANN, "Ann", False),
            (CAT, "Cat", False),
        ]
        # Withdrawn from the live one (a deleted account plays no more); the rest stays.
        withdrawn = [s.player_id == BOB and tid == live for s in after]
        assert [s.withdrawn for s in after] == withdrawn
        assert [strip(s) for s in after] == [strip(s) for s in before[tid]]
        assert [g.players for g in await store.games(tid)] == [(ANN, BOB)]
        t = await store.tournament(tid)
        assert t is not None and (t.created_by, t.creator_id) == ("", BOB)
    bob = next(e for e in await store.entrants(live) if e.player_id == BOB)
    assert (bob.name, bob.deleted, bob.joined_at_ms) == ("", True, 1)


async def test_forgetting_twice_changes_nothing(store: Store) -> None:
    tid = await played(store, "t1")
    await store.forget(BOB, 1_000.0)
    once = (await store.entrants(tid), await standings(store, tid))
    await store.forget(BOB, 2_000.0)
    assert (await store.entrants(tid), await standings(store, tid)) == once
    rows = await store.database.run(
        lambda s: s.rows("SELECT player_id, deleted_unix_s FROM tournaments_deleted_players")
    )
    assert rows == [("bob", 1_000.0)]


async def test_forgetting_a_player_never_seen_is_kept_for_later(store: Store) -> None:
    await store.forget(BOB, 1_000.0)
    await store.create(tournament(), 0)
    await store.join(TID, Entrant(BOB, "Bob", 5))
    assert await store.entrants(TID) == [Entrant(BOB, "", 5, deleted=True)]


async def test_final_standings_ranked_before_a_deletion_are_stored_blank(store: Store) -> None:
    tid = await played(store, "t1")
    lines = rank(await store.entrants(tid), await store.games(tid))  # Bob's name still in
    await store.forget(BOB, 1_000.0)
    await store.finish(tid, lines)
    final = await store.final_standings(tid)
    assert [(s.player_id, s.name, s.deleted) for s in final] == [
        (BOB, "", True),
        (ANN, "Ann", False),
        (CAT, "Cat", False),
    ]


async def standings(store: Store, tid: TournamentId) -> list[Standing]:
    """The standings as the service answers them: final ones once finished."""
    t = await store.tournament(tid)
    assert t is not None
    if t.status is Status.FINISHED:
        return await store.final_standings(tid)
    return list(rank(await store.entrants(tid), await store.games(tid)))


def strip(line: Standing) -> Standing:
    """The line without what a deletion changes: the name, the deleted mark, withdrawal."""
    return dataclasses.replace(line, name="", deleted=False, withdrawn=False)


async def test_a_players_tournaments_count_every_entry_and_list_the_best_finishes(
    store: Store,
) -> None:
    """For a profile: two finished tournaments (2nd of 3, then 1st of 2) and one still to
    come; the best finish first, each with how many were ranked and the points."""
    for tid, starts in (("t1", 1_000), ("t2", 2_000), ("t3", 3_000)):
        await store.create(tournament(tid, starts), 0)
    players = {n: Entrant(PlayerId(n), n.upper(), 0) for n in ("a", "b", "c")}
    for tid, names in (("t1", "abc"), ("t2", "ab"), ("t3", "a")):
        for name in names:
            await store.join(TournamentId(tid), players[name])
    await store.add_game(TID, TournamentGame("m1", (PlayerId("b"), PlayerId("a")), 10))
    await store.record_result("m1", GameStatus.FINISHED, 0, 20)  # b beats a in t1
    await store.finish(TID, rank(await store.entrants(TID), await store.games(TID)))
    t2 = TournamentId("t2")
    await store.add_game(t2, TournamentGame("m2", (PlayerId("a"), PlayerId("b")), 30))
    await store.record_result("m2", GameStatus.FINISHED, 0, 40)  # a beats b in t2
    await store.finish(t2, rank(await store.entrants(t2), await store.games(t2)))

    entered, best = await store.player_tournaments("a", 5)
    assert entered == 3
    assert [(t.id, place, ranked) for t, place, ranked, _ in best] == [("t2", 1, 2), ("t1", 2, 3)]
    assert best[0][3] > 0 and best[1][3] == 0  # a win scores, a loss does not
    assert await store.player_tournaments("nobody", 5) == (0, [])
    assert len((await store.player_tournaments("a", 1))[1]) == 1
