"""Results stored exactly once with their rating changes, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import asyncio

import pytest

from games.registry import BID, SPIT
from services.common.database import Database, Target
from services.ratings.errors import NotRanked
from services.ratings.model import PlayerId, Recorded, Verdict
from services.ratings.store import Store
from tests.ratings.results import put, standing, void, win

NOW = 1_800_000_000.0
ANN, BOB = PlayerId("ann"), PlayerId("bob")


async def test_a_rated_win_moves_both_ratings_and_writes_both_histories(store: Store) -> None:
    assert await store.record(win("m1", "ann", "bob"), NOW) is Recorded.RATED
    ladder = {e.standing.player_id: e.standing for e in await store.ladder(SPIT, 10)}
    assert ladder[ANN].rating.rating > 1500 > ladder[BOB].rating.rating
    assert (ladder[ANN].games, ladder[ANN].wins, ladder[BOB].losses) == (1, 1, 1)
    (line,) = await store.history(BOB, SPIT, 10)
    assert (line.match_id, line.verdict, line.opponent_id) == ("m1", Verdict.LOSS, ANN)
    assert line.rating_before == 1500 and line.rating_after == ladder[BOB].rating.rating
    assert line.played_unix_s == NOW


async def test_the_same_result_stored_twice_counts_once(store: Store) -> None:
    assert await store.record(win("m1", "ann", "bob"), NOW) is Recorded.RATED
    before = await store.ladder(SPIT, 10)
    assert await store.record(win("m1", "ann", "bob"), NOW + 5) is Recorded.DUPLICATE
    # Even a different result under a match id already counted changes nothing.
    assert await store.record(win("m1", "bob", "ann"), NOW + 9) is Recorded.DUPLICATE
    assert await store.ladder(SPIT, 10) == before
    assert len(await store.history(ANN, SPIT, 10)) == 1


async def test_voided_and_unrated_results_change_no_rating_but_appear_in_history(
    store: Store,
) -> None:
    await store.record(win("m1", "ann", "bob"), NOW)
    rated = {e.standing.player_id: e.standing for e in await store.ladder(SPIT, 10)}
    assert await store.record(void("m2", "ann", "bob"), NOW + 1) is Recorded.VOIDED
    assert await store.record(win("m3", "bob", "ann", rated=False), NOW + 2) is Recorded.UNRATED
    assert await store.record(win("m4", "ann", "cat"), NOW + 3) is Recorded.RATED
    assert await store.ladder(SPIT, 10) != ()
    after = {e.standing.player_id: e.standing for e in await store.ladder(SPIT, 10)}
    assert after[BOB] == rated[BOB]
    lines = await store.history(BOB, SPIT, 10)
    assert [(x.match_id, x.verdict, x.rated) for x in lines] == [
        ("m3", Verdict.WIN, False),
        ("m2", Verdict.VOID, False),
        ("m1", Verdict.LOSS, True),
    ]
    assert all(x.change == 0 and x.rating_before == rated[BOB].rating.rating for x in lines[:2])
    assert lines[1].void_reason == "event_loop_lag"


async def test_a_player_never_rated_has_history_but_no_ladder_line(store: Store) -> None:
    await store.record(win("m1", "dee", "eve", rated=False), NOW)
    assert await store.ladder(SPIT, 10) == ()
    assert await store.standing(PlayerId("dee"), SPIT) is None
    (line,) = await store.history(PlayerId("dee"), SPIT, 10)
    assert line.rating_before is None and line.verdict is Verdict.WIN


async def test_each_game_keeps_its_own_ladder(store: Store) -> None:
    await store.record(win("m1", "ann", "bob", game=BID), NOW)
    assert await store.ladder(SPIT, 10) == ()
    assert [e.standing.player_id for e in await store.ladder(BID, 10)] == [ANN, BOB]
    assert await store.history(ANN, SPIT, 10) == ()


async def test_games_are_stored_under_the_names_existing_databases_hold(store: Store) -> None:
    await store.record(win("m1", "ann", "bob", game=BID), NOW)
    await store.record(void("m2", "ann", "bob", game=SPIT), NOW + 60)
    rows = await store.database.run(
        lambda s: s.rows(
            "SELECT 'results', game FROM results UNION SELECT 'ladder', game FROM ladder"
            " UNION SELECT 'history', game FROM history"
        )
    )
    assert {tuple(row) for row in rows} == {
        ("results", "bid"),
        ("results", "spit"),
        ("ladder", "bid"),
        ("history", "bid"),
        ("history", "spit"),
    }


async def test_the_ladder_orders_by_rating_then_games_then_player_id(store: Store) -> None:
    await put(
        store,
        BID,
        standing("dee", 1500, games=3),
        standing("bob", 1500, games=9),
        standing("ann", 1500, games=3),
        standing("cat", 1800, rd=200, games=1),
        standing("Zed", 1500, games=3),
    )
    ranked = await store.ladder(BID, 4)
    assert [(e.rank, e.standing.player_id) for e in ranked] == [
        (1, "cat"),
        (2, "bob"),
        (3, "Zed"),
        (4, "ann"),
    ]
    assert [e.is_provisional for e in ranked] == [True, False, False, False]


async def test_the_page_around_a_player_ranks_them_among_their_neighbours(store: Store) -> None:
    rows = [standing(f"p{i:02}", 2000 - 10 * i) for i in range(20)]
    # Ties broken as the top ladder breaks them: more games, then the smaller id.
    rows += [standing("tie-b", 1905, games=10), standing("tie-a", 1905, games=10)]
    await put(store, SPIT, *rows)
    page = await store.ladder_around(SPIT, PlayerId("tie-b"), 5)
    assert [(e.rank, e.standing.player_id) for e in page] == [
        (10, "p09"),
        (11, "tie-a"),
        (12, "tie-b"),
        (13, "p10"),
        (14, "p11"),
    ]
    top = await store.ladder(SPIT, 22)
    assert page == top[9:14]
    bottom = await store.ladder_around(SPIT, PlayerId("p19"), 4)
    assert [e.rank for e in bottom] == [19, 20, 21, 22]


async def test_no_page_around_a_player_without_a_rated_game(store: Store) -> None:
    await store.record(win("m1", "ann", "bob", rated=False), NOW)
    with pytest.raises(NotRanked):
        await store.ladder_around(SPIT, ANN, 5)


async def test_concurrent_writers_lose_no_update_of_a_shared_player(target: Target) -> None:
    databases = [Database(target) for _ in range(2)]
    for database in databases:
        await database.open()
    stores = [Store(database) for database in databases]
    await stores[0].migrate()
    try:
        await asyncio.gather(
            *(
                stores[i % 2].record(win(f"m{i}", "ann", f"rival{i % 6}"), NOW + i)
                for i in range(24)
            )
        )
        ann = await stores[0].standing(ANN, SPIT)
        assert ann is not None and (ann.games, ann.wins) == (24, 24)
        assert len(await stores[1].history(ANN, SPIT, 100)) == 24
    finally:
        for database in databases:
            await database.close()


async def test_a_pair_counts_five_rated_games_in_any_24_hours_and_the_rest_are_uncounted(
    store: Store,
) -> None:
    for number in range(5):
        recorded = await store.record(win(f"m{number}", "ann", "bob"), NOW + number)
        assert recorded is Recorded.RATED
    after_five = await store.ladder(SPIT, 10)
    # The sixth within 24 hours, whoever wins and in either seat, counts for nothing.
    assert await store.record(win("m5", "bob", "ann"), NOW + 60) is Recorded.UNCOUNTED
    assert await store.ladder(SPIT, 10) == after_five
    line = (await store.history(BOB, SPIT, 1))[0]
    assert (line.match_id, line.verdict, line.rated, line.change) == ("m5", Verdict.WIN, False, 0)
    assert "already have 5 rated games counted in the last 24 hours" in line.uncounted_reason
    # Other opponents and the other game count as ever.
    assert await store.record(win("c1", "ann", "cat"), NOW + 61) is Recorded.RATED
    assert await store.record(win("b1", "ann", "bob", game=BID), NOW + 62) is Recorded.RATED
    # A day after the first, one place is free again: the window slides.
    assert await store.record(win("m6", "ann", "bob"), NOW + 86_400.5) is Recorded.RATED
    assert await store.record(win("m7", "ann", "bob"), NOW + 86_400.6) is Recorded.UNCOUNTED


async def test_the_pair_cap_is_configuration(target: Target) -> None:
    database = Database(target)
    await database.open()
    try:
        store = Store(database, rated_per_pair_per_day=1)
        await store.migrate()
        assert await store.record(win("m1", "ann", "bob"), NOW) is Recorded.RATED
        assert await store.record(win("m2", "ann", "bob"), NOW + 1) is Recorded.UNCOUNTED
    finally:
        await database.close()


async def test_concurrent_writers_count_no_more_than_the_pair_cap(target: Target) -> None:
    databases = [Database(target) for _ in range(2)]
    for database in databases:
        await database.open()
    stores = [Store(database) for database in databases]
    await stores[0].migrate()
    try:
        recorded = await asyncio.gather(
            *(stores[i % 2].record(win(f"m{i}", "ann", "bob"), NOW + i) for i in range(12))
        )
        assert recorded.count(Recorded.RATED) == 5
        assert recorded.count(Recorded.UNCOUNTED) == 7
        ann = await stores[1].standing(ANN, SPIT)
        assert ann is not None and ann.games == 5
    finally:
        for database in databases:
            await database.close()
