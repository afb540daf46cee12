"""The live list's order and choice: tournament games first, then the most watched."""

from __future__ import annotations

from photofinish.client.v1 import arena_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from services.gateway.live_matches import MAX_LIMIT, chosen, ordered

BID = game_pb2.GAME_BID
SPIT = game_pb2.GAME_SPIT


def shown(
    match_id: str, watchers: int = 0, tournament: str = "", opened: int = 0, game: int = BID
) -> arena_pb2.LiveMatchShown:
    match = events_pb2.LiveMatch(
        match_id=match_id,
        game=game_pb2.Game.ValueType(game),
        tournament_id=tournament,
        opened_at_unix_ms=opened,
    )
    return arena_pb2.LiveMatchShown(match=match, watchers=watchers)


def ids(matches: list[arena_pb2.LiveMatchShown]) -> list[str]:
    return [m.match.match_id for m in matches]


def test_tournament_games_come_first_even_unwatched() -> None:
    matches = [shown("casual", watchers=9), shown("tourney", tournament="t1")]
    assert ids(ordered(matches)) == ["tourney", "casual"]


def test_then_the_most_watched_then_the_newest() -> None:
    matches = [
        shown("old", opened=1),
        shown("new", opened=2),
        shown("watched", watchers=2, opened=0),
    ]
    assert ids(ordered(matches)) == ["watched", "new", "old"]


def test_a_request_chooses_its_game_or_its_match() -> None:
    matches = [shown("b1"), shown("s1", game=SPIT), shown("b2", watchers=1)]
    assert ids(chosen(arena_pb2.ListLiveMatchesRequest(game=SPIT), matches)) == ["s1"]
    assert ids(chosen(arena_pb2.ListLiveMatchesRequest(game=BID), matches)) == ["b2", "b1"]
    assert ids(chosen(arena_pb2.ListLiveMatchesRequest(match_id="b1"), matches)) == ["b1"]
    assert ids(chosen(arena_pb2.ListLiveMatchesRequest(match_id="gone"), matches)) == []


def test_the_limit_is_kept_and_capped() -> None:
    matches = [shown(f"m{n}", opened=n) for n in range(MAX_LIMIT + 10)]
    assert ids(chosen(arena_pb2.ListLiveMatchesRequest(limit=2), matches)) == ["m209", "m208"]
    assert len(chosen(arena_pb2.ListLiveMatchesRequest(limit=10_000), matches)) == MAX_LIMIT
    assert len(chosen(arena_pb2.ListLiveMatchesRequest(), matches)) == 50
