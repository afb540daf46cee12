"""Fair play in the ratings database, on SQLite and PostgreSQL: measured matches judged as
they are stored, the queue, reports and their limits, and an operator's clear or mark
(no rated play, off the ladders, refunds with a history line, every action logged)."""

from __future__ import annotations

import random
import zlib
from pathlib import Path

import pytest

from games.registry import SPIT
from services.common.database import Database
from services.fairplay.flags import Thresholds
from services.fairplay.races import Race, races
from services.fairplay.reactions import spit_reactions
from services.ratings.errors import Moderation, Reason
from services.ratings.fairness import Fairness
from services.ratings.measured import SpitFigures
from services.ratings.model import Finished, MatchId, Mode, PlayerId, Recorded, Verdict
from services.ratings.moderation import Action, FlagState, Operator, ReportReason
from services.ratings.store import Store
from tests.fairplay.simulated import FAST_CLIENT, PERSON, play_match
from tests.ratings.results import win

NOW = 1_800_000_000.0
ANN, BOB, CAT = PlayerId("ann"), PlayerId("bob"), PlayerId("cat")
OPS = Operator(PlayerId("ops"), "Olga")


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def fairness(store: Store, clock: Clock) -> Fairness:
    return Fairness(store.database, Thresholds(), reports_per_day=3, clock=clock)


async def play(
    store: Store,
    fairness: Fairness,
    match_id: str,
    seats: tuple[str, str],
    fast: tuple[bool, bool],
    at: float,
    winner: int = 0,
) -> tuple[str, ...] | None:
    """A rated Spit match between ``seats`` recorded, then measured as the reader does."""
    result = Finished(
        MatchId(match_id),
        SPIT,
        (
            win(match_id, seats[0], seats[1]).players[0],
            win(match_id, seats[1], seats[0]).players[0],
        ),
        winner,
        True,
        Mode.ONLINE,
    )
    await store.record(result, at)
    paces = tuple(FAST_CLIENT if f else PERSON for f in fast)
    # The deal's seed from the match id, the same in every process (hash() of a str is not:
    # a seed under which three fast games gave fewer answers than a verdict needs failed
    # one run in a few hundred).
    seed = zlib.crc32(match_id.encode()) % 1000
    log = play_match(seed, (paces[0], paces[1]), random.Random(match_id))
    return await fairness.record(result, at, spit_reactions(log), races(log))


async def test_a_fast_client_is_flagged_once_and_a_person_never(
    store: Store, fairness: Fairness
) -> None:
    opened: list[str] = []
    for game in range(3):
        found = await play(store, fairness, f"m{game}", ("ann", "bob"), (True, False), NOW + game)
        assert found is not None
        opened += found
    (flag,) = await fairness.queue()
    assert opened == [flag.flag_id]
    assert (flag.player_id, flag.name, flag.state) == (ANN, "Ann", FlagState.OPEN)
    assert "median answer" in flag.reactions_why
    # Measured once: the same match again changes nothing.
    assert await play(store, fairness, "m0", ("ann", "bob"), (True, False), NOW) is None

    case = await fairness.case(flag.flag_id)
    assert case.figures is not None and case.figures.answers == sum(case.answers)
    assert case.figures.median_answer_ms is not None and case.figures.median_answer_ms < 150
    # Everyone else's: Bob's answers alone here.
    bob = (await store.profile(BOB)).games[0].spit
    assert bob is not None and sum(case.everyone_answers) == bob.answers
    assert [g.match_id for g in case.games] == ["m2", "m1", "m0"]
    profile = (await store.profile(BOB)).games[0].spit
    assert profile is not None and profile.median_answer_ms is not None
    assert profile.median_answer_ms > 150
    assert profile.chains > 0 and profile.median_chain_ms is not None


async def test_races_count_for_both_runners_with_the_winners_median_margin(
    store: Store, fairness: Fairness
) -> None:
    result = win("m1", "ann", "bob")
    await store.record(result, NOW)
    ran = [
        Race(0, True, 12.0, 5),
        Race(1, False, 12.0, 5),
        Race(0, True, 30.0, 9),
        Race(1, False, 30.0, 9),
        Race(1, True, 4.0, 12),
        Race(0, False, 4.0, 12),
    ]
    assert await fairness.record(result, NOW, [], ran) == ()
    ann = (await store.profile(ANN)).games[0].spit
    bob = (await store.profile(BOB)).games[0].spit
    assert ann == SpitFigures(2, 1, 21.0, 0, None, 0, None)
    assert bob == SpitFigures(1, 2, 4.0, 0, None, 0, None)


async def test_clearing_closes_the_flag_and_only_later_games_can_open_another(
    store: Store, fairness: Fairness, clock: Clock
) -> None:
    for game in range(3):
        await play(store, fairness, f"m{game}", ("ann", "bob"), (True, False), NOW + game)
    (flag,) = await fairness.queue()
    clock.now = NOW + 100
    assert await fairness.settle(flag.flag_id, Action.CLEAR, OPS, "a fast player, seen live") == 0
    assert await fairness.queue() == ()
    with pytest.raises(Moderation) as settled:
        await fairness.settle(flag.flag_id, Action.MARK, OPS, "again")
    assert settled.value.reason is Reason.FLAG_SETTLED
    # Person-paced games after the clearing: no new flag.
    for game in range(3, 5):
        await play(store, fairness, f"m{game}", ("ann", "bob"), (False, False), NOW + 200 + game)
    assert await fairness.queue() == ()
    # Fast again, enough for a verdict on the new games alone: a new flag.
    for game in range(5, 8):
        await play(store, fairness, f"m{game}", ("ann", "bob"), (True, False), NOW + 200 + game)
    (again,) = await fairness.queue()
    assert again.flag_id != flag.flag_id
    case = await fairness.case(again.flag_id)
    assert [(e.operator_name, e.action, e.why) for e in case.log] == [
        ("Olga", "clear", "a fast player, seen live")
    ]


async def test_marking_bars_rated_play_takes_the_account_off_the_ladder_and_refunds(
    store: Store, fairness: Fairness, clock: Clock
) -> None:
    for game in range(3):
        await play(store, fairness, f"m{game}", ("ann", "bob"), (True, False), NOW + game)
    await store.record(win("c1", "ann", "cat"), NOW + 10)
    await store.record(win("c2", "cat", "ann"), NOW + 11)
    bob_before = (await store.history(BOB, SPIT, 10))[::-1]
    lost = sum(-line.change for line in bob_before)
    bob_rating = (await store.standing(BOB, SPIT)).rating.rating  # type: ignore[union-attr]
    cat_rating = (await store.standing(CAT, SPIT)).rating.rating  # type: ignore[union-attr]
    (flag,) = await fairness.queue()

    clock.now = NOW + 100
    with pytest.raises(Moderation) as empty:
        await fairness.settle(flag.flag_id, Action.MARK, OPS, "  ")
    assert empty.value.reason is Reason.NO_REASON
    assert await fairness.settle(flag.flag_id, Action.MARK, OPS, "answers at 80 ms") == 4

    assert ANN not in [e.standing.player_id for e in await store.ladder(SPIT, 10)]
    standing, barred = await store.rating(ANN, SPIT)
    assert barred and standing is not None
    assert (await store.profile(ANN)).barred
    refunds = [
        line for line in await store.history(BOB, SPIT, 10) if line.verdict is Verdict.REFUND
    ]
    assert len(refunds) == 3 and {r.match_id for r in refunds} == {"m0", "m1", "m2"}
    assert all(r.opponent_id == ANN and r.played_unix_s == NOW + 100 for r in refunds)
    after = await store.standing(BOB, SPIT)
    assert after is not None and after.rating.rating == pytest.approx(bob_rating + lost)
    cat_after = await store.standing(CAT, SPIT)
    assert cat_after is not None and cat_after.rating.rating > cat_rating  # lost c1 to Ann
    # A second marking refunds nothing twice; a rated game with Ann no longer counts.
    assert await store.record(win("m9", "bob", "ann"), NOW + 200) is Recorded.UNCOUNTED
    (line,) = [x for x in await store.history(BOB, SPIT, 1)]
    assert not line.rated and "barred" in line.uncounted_reason


async def test_reports_join_the_queue_once_per_match_and_a_few_a_day(
    store: Store, fairness: Fairness, clock: Clock
) -> None:
    for game in range(5):
        await store.record(win(f"r{game}", "ann", "bob"), NOW + game)
    await store.record(win("pc", "ann", "bot", mode=Mode.COMPUTER, rated=False), NOW)
    flag_id = await fairness.report(BOB, MatchId("r0"), ReportReason.TOO_FAST)
    assert await fairness.report(BOB, MatchId("r1"), ReportReason.PROGRAM) == flag_id
    (flag,) = await fairness.queue()
    assert (flag.player_id, flag.reactions_why) == (ANN, "")
    assert set(flag.reports) == {("too_fast", 1), ("program", 1)}

    async def refused(reporter: PlayerId, match: str, reason: Reason) -> None:
        with pytest.raises(Moderation) as error:
            await fairness.report(reporter, MatchId(match), ReportReason.TOO_FAST)
        assert error.value.reason is reason

    await refused(BOB, "r0", Reason.ALREADY_REPORTED)
    await refused(CAT, "r2", Reason.NOT_YOUR_MATCH)
    await refused(BOB, "nope", Reason.NOT_YOUR_MATCH)
    await refused(ANN, "pc", Reason.NOT_ONLINE)
    await fairness.report(BOB, MatchId("r2"), ReportReason.STALLING)
    await refused(BOB, "r3", Reason.TOO_MANY_REPORTS)
    clock.now = NOW + 86_401  # a day on: reports again
    await fairness.report(BOB, MatchId("r3"), ReportReason.NAME)
    assert len((await fairness.queue())[0].reports) == 4


async def test_an_operator_never_settles_a_flag_on_themselves(
    store: Store, fairness: Fairness
) -> None:
    await store.record(win("r0", "ops", "bob"), NOW)
    flag_id = await fairness.report(BOB, MatchId("r0"), ReportReason.NAME)
    with pytest.raises(Moderation) as error:
        await fairness.settle(flag_id, Action.CLEAR, OPS, "mine")
    assert error.value.reason is Reason.OWN_FLAG
    with pytest.raises(Moderation) as unknown:
        await fairness.case("no-such-flag")
    assert unknown.value.reason is Reason.NO_SUCH_FLAG


async def test_measurements_are_kept_across_a_restart(tmp_path: Path) -> None:
    from services.common.database import SqliteFile

    target = SqliteFile(tmp_path / "r.sqlite3")
    for _ in range(2):
        database = Database(target)
        await database.open()
        store = Store(database)
        await store.migrate()
        fairness = Fairness(database)
        await play(store, fairness, "m0", ("ann", "bob"), (True, False), NOW)
        figures = (await store.profile(ANN)).games[0].spit
        assert figures is not None and figures.answers > 0
        await database.close()
