"""A player's profile from the ratings database: each game played, its rating, rank and
results, and the rating after each rated game, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from games.registry import BID, SPIT
from services.ratings.model import PlayerId, Verdict
from services.ratings.store import Store
from tests.ratings.results import void, win

NOW = 1_800_000_000.0
ANN, BOB, CAT = PlayerId("ann"), PlayerId("bob"), PlayerId("cat")


async def test_each_game_has_its_rank_results_and_ratings_over_time(store: Store) -> None:
    await store.record(win("m1", "ann", "bob"), NOW)
    await store.record(win("m2", "bob", "ann"), NOW + 10)
    await store.record(win("m3", "ann", "cat"), NOW + 20)
    await store.record(void("m4", "ann", "bob"), NOW + 30)
    await store.record(win("m5", "cat", "ann", rated=False), NOW + 40)
    await store.record(win("b1", "bob", "ann", game=BID), NOW + 50)

    profile = await store.profile(ANN)
    assert (profile.name, profile.guest, profile.deleted) == ("Ann", False, False)
    spit, bid = profile.games
    assert (spit.game, bid.game) == (SPIT, BID)
    assert spit.results == {Verdict.WIN: 2, Verdict.LOSS: 2, Verdict.VOID: 1}
    history = [line for line in await store.history(ANN, SPIT, 10) if line.rated]
    assert [p.rating for p in spit.points] == [line.rating_after for line in history][::-1]
    assert [p.played_unix_s for p in spit.points] == [NOW, NOW + 10, NOW + 20]
    ladder = await store.ladder(SPIT, 10)
    assert spit.rank == next(e.rank for e in ladder if e.standing.player_id == ANN)
    assert spit.ranked == len(ladder) == 3
    assert (
        spit.standing is not None and spit.standing.rating == ladder[spit.rank - 1].standing.rating
    )
    assert bid.results == {Verdict.LOSS: 1} and (bid.rank, bid.ranked) == (2, 2)


async def test_a_stranger_has_no_games_and_unrated_play_has_no_rank(store: Store) -> None:
    assert (await store.profile(PlayerId("nobody"))).games == ()
    await store.record(win("m1", "ann", "bob", rated=False), NOW)
    (spit,) = (await store.profile(BOB)).games
    assert (spit.standing, spit.rank, spit.points) == (None, 0, ())
    assert spit.results == {Verdict.LOSS: 1}
