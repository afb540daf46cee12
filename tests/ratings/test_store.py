"""Results stored exactly once with their rating changes, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from games.registry import BID, SPIT
from services.common.database import Database, Target
from services.ratings.errors import NotRanked
from services.ratings.model import HistoryEntry, LadderEntry, PlayerId, Recorded, Verdict
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


GUS = PlayerId("g_gus")


async def test_guests_are_marked_on_the_ladder_and_in_their_opponents_lines(
    store: Store,
) -> None:
    await store.record(win("m1", "g_gus", "ann"), NOW)
    ladder = {e.standing.player_id: e.standing for e in await store.ladder(SPIT, 10)}
    assert (ladder[GUS].guest, ladder[ANN].guest) == (True, False)
    (ann_line,) = await store.history(ANN, SPIT, 10)
    (gus_line,) = await store.history(GUS, SPIT, 10)
    assert (ann_line.opponent_guest, gus_line.opponent_guest) == (True, False)


async def test_a_guest_who_signed_up_loses_the_mark_at_their_next_rated_game(
    store: Store,
) -> None:
    await store.record(win("m1", "g_gus", "ann"), NOW)
    as_guest = win("m2", "g_gus", "ann", rated=False)
    assert as_guest.players[0].guest
    await store.record(as_guest, NOW + 1)  # casual: the ladder row is not touched
    assert (await store.standing(GUS, SPIT) or pytest.fail()).guest
    signed_up = win("m3", "ann", "g_gus")
    seats = (signed_up.players[0], replace(signed_up.players[1], guest=False))
    await store.record(replace(signed_up, players=seats), NOW + 2)
    assert not (await store.standing(GUS, SPIT) or pytest.fail()).guest
    # Each line keeps the mark its match had.
    lines = await store.history(ANN, SPIT, 10)
    assert [(x.match_id, x.opponent_guest) for x in lines] == [
        ("m3", False),
        ("m2", True),
        ("m1", True),
    ]


async def test_forgetting_blanks_the_name_on_every_ladder_and_in_opponents_lines_only(
    store: Store,
) -> None:
    await store.record(win("m1", "ann", "bob"), NOW)
    await store.record(win("m2", "bob", "cat", game=BID), NOW + 1)
    await store.record(void("m3", "bob", "ann"), NOW + 2)
    ladders = [await store.ladder(game, 10) for game in (SPIT, BID)]
    histories = {p: await store.history(PlayerId(p), None, 10) for p in ("ann", "bob", "cat")}

    await store.forget(BOB, NOW + 3)

    for game, before in zip((SPIT, BID), ladders, strict=True):
        after = await store.ladder(game, 10)
        assert BOB in {e.standing.player_id for e in before}
        assert after == tuple(_forgotten_on_ladder(e, BOB) for e in before)
    for player_id, before_lines in histories.items():
        after_lines = await store.history(PlayerId(player_id), None, 10)
        assert after_lines == tuple(_forgotten_in_line(x, BOB) for x in before_lines)
    # Bob's own lines name his opponents, who are not deleted.
    assert {x.opponent_name for x in await store.history(BOB, None, 10)} == {"Ann", "Cat"}


async def test_forgetting_twice_changes_nothing_more(store: Store) -> None:
    await store.record(win("m1", "ann", "bob"), NOW)
    await store.forget(BOB, NOW + 1)
    ladder, lines = await store.ladder(SPIT, 10), await store.history(ANN, SPIT, 10)
    await store.forget(BOB, NOW + 2)
    assert await store.ladder(SPIT, 10) == ladder
    assert await store.history(ANN, SPIT, 10) == lines
    rows = await store.database.run(lambda s: s.rows("SELECT * FROM deleted_players"))
    assert [tuple(row) for row in rows] == [("bob", NOW + 1)]


async def test_a_result_recorded_after_the_forgetting_is_written_blank(store: Store) -> None:
    # A match being played while Bob deleted his account ends after: rated, then casual.
    await store.forget(BOB, NOW)
    assert await store.record(win("m1", "ann", "bob"), NOW + 1) is Recorded.RATED
    assert await store.record(win("m2", "bob", "ann", rated=False), NOW + 2) is Recorded.UNRATED
    bob = await store.standing(BOB, SPIT)
    assert bob is not None and (bob.name, bob.deleted, bob.games) == ("", True, 1)
    lines = await store.history(ANN, SPIT, 10)
    assert [(x.opponent_name, x.opponent_deleted) for x in lines] == [("", True), ("", True)]
    ann = await store.standing(ANN, SPIT)
    assert ann is not None and (ann.name, ann.deleted) == ("Ann", False)


async def test_a_pair_cap_reason_names_a_deleted_player_as_such(store: Store) -> None:
    for number in range(5):
        await store.record(win(f"m{number}", "ann", "bob"), NOW + number)
    await store.record(win("m5", "bob", "ann"), NOW + 5)
    (line,) = await store.history(ANN, SPIT, 1)
    assert line.uncounted_reason.startswith("Bob and Ann already have 5 rated games")

    await store.forget(BOB, NOW + 6)
    await store.forget(BOB, NOW + 7)
    for player_id in (ANN, BOB):
        (line,) = await store.history(player_id, SPIT, 1)
        assert line.uncounted_reason.startswith("deleted player and Ann already have 5 rated")
    # Recorded after the forgetting, with Ann in seat 0.
    assert await store.record(win("m6", "ann", "bob"), NOW + 8) is Recorded.UNCOUNTED
    (line,) = await store.history(ANN, SPIT, 1)
    assert line.uncounted_reason.startswith("Ann and deleted player already have 5 rated")


def _forgotten_on_ladder(entry: LadderEntry, player_id: PlayerId) -> LadderEntry:
    if entry.standing.player_id != player_id:
        return entry
    return replace(entry, standing=replace(entry.standing, name="", deleted=True))


def _forgotten_in_line(line: HistoryEntry, player_id: PlayerId) -> HistoryEntry:
    if line.opponent_id != player_id:
        return line
    return replace(line, opponent_name="", opponent_deleted=True)


async def test_results_recorded_while_a_player_is_forgotten_never_keep_the_name(
    target: Target,
) -> None:
    databases = [Database(target) for _ in range(2)]
    for database in databases:
        await database.open()
    stores = [Store(database) for database in databases]
    await stores[0].migrate()
    try:
        # Rated and casual results of Bob's, from one process, while the other forgets him.
        results = [win(f"m{i}", "bob", f"rival{i}", rated=i % 2 == 0) for i in range(16)]
        recording = [stores[0].record(result, NOW + i) for i, result in enumerate(results)]
        await asyncio.gather(*recording[:8], stores[1].forget(BOB, NOW), *recording[8:])
        lines = await stores[1].database.run(
            lambda s: s.rows(
                "SELECT opponent_name, opponent_deleted FROM history WHERE opponent_id = 'bob'"
            )
        )
        assert [tuple(row) for row in lines] == [("", 1)] * 16
        bob = await stores[1].standing(BOB, SPIT)
        assert bob is not None and (bob.name, bob.deleted, bob.games) == ("", True, 8)
    finally:
        for database in databases:
            await database.close()
