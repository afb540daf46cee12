"""The cap on live matches against the computer and on one device: what counts, and when
a place comes free (the clock in the test's hands)."""

from __future__ import annotations

import pytest

from photofinish.events.v1 import events_pb2
from services.common.identity import PlayerId
from services.matchmaking.errors import Reason, Refused
from services.matchmaking.playing import UNLISTED_S, Playing

ANN, BOB = PlayerId("ann"), PlayerId("bob")


class Clock:
    def __init__(self) -> None:
        self.now_s = 1_000.0

    def __call__(self) -> float:
        return self.now_s


def record(match_id: str, mode: int, *players: tuple[str, bool]) -> events_pb2.LiveMatch:
    return events_pb2.LiveMatch(
        match_id=match_id,
        mode=mode,  # type: ignore[arg-type]
        players=[events_pb2.Player(player_id=p, bot=bot) for p, bot in players],
    )


def computer(match_id: str, player: str = "ann") -> events_pb2.LiveMatch:
    return record(match_id, events_pb2.MODE_COMPUTER, ("bot-1", True), (player, False))


def hotseat(match_id: str, player: str = "ann") -> events_pb2.LiveMatch:
    return record(match_id, events_pb2.MODE_HOTSEAT, (player, False), (player, False))


def start(playing: Playing, player: PlayerId, match_id: str) -> None:
    with playing.starting(player, match_id):
        pass


def refusal(playing: Playing, player: PlayerId) -> Refused:
    with pytest.raises(Refused) as caught, playing.starting(player, "refused"):
        pass
    return caught.value


def test_listed_computer_and_hot_seat_matches_count_and_a_fourth_is_refused() -> None:
    playing = Playing()
    playing.listed("m1", computer("m1"))
    playing.listed("m2", hotseat("m2"))
    start(playing, ANN, "m3")
    assert playing.held(ANN) == {"m1", "m2", "m3"}
    error = refusal(playing, ANN)
    assert error.reason is Reason.TOO_MANY_MATCHES
    assert error.detail == (
        "you have 3 matches against the computer or on one device in play, the most at"
        " once: finish or resign one to start another"
    )
    start(playing, BOB, "b1")  # each player has a cap of their own


def test_an_ended_match_frees_its_place() -> None:
    playing = Playing()
    for match_id in ("m1", "m2", "m3"):
        playing.listed(match_id, computer(match_id))
    playing.listed("m2", None)
    assert playing.held(ANN) == {"m1", "m3"}
    start(playing, ANN, "m4")


def test_online_and_tournament_matches_do_not_count() -> None:
    playing = Playing()
    online = record("o1", events_pb2.MODE_ONLINE, ("ann", False), ("bob", False))
    playing.listed("o1", online)
    assert playing.held(ANN) == frozenset() and playing.held(BOB) == frozenset()


def test_starts_under_way_hold_their_places() -> None:
    playing = Playing()
    with (
        pytest.raises(ConnectionError),  # the openings of s1 and s2 failed
        playing.starting(ANN, "s1"),
        playing.starting(ANN, "s2"),
    ):
        with playing.starting(ANN, "s3"):
            assert playing.held(ANN) == {"s1", "s2", "s3"}
            assert refusal(playing, ANN).reason is Reason.TOO_MANY_MATCHES
        raise ConnectionError
    assert playing.held(ANN) == {"s3"}  # s1 and s2 never opened: their places are free
    start(playing, ANN, "m1")


def test_a_match_opened_but_not_yet_listed_counts_until_listed_or_the_wait_is_over() -> None:
    clock = Clock()
    playing = Playing(clock)
    start(playing, ANN, "m1")
    start(playing, ANN, "m2")
    playing.listed("m1", computer("m1"))  # the listing arrives after the answer
    assert playing.held(ANN) == {"m1", "m2"}
    playing.listed("m1", None)
    assert playing.held(ANN) == {"m2"}
    clock.now_s += UNLISTED_S  # m2's listing was lost: it counts no longer than this
    assert playing.held(ANN) == {"m2"}
    clock.now_s += 0.001
    assert playing.held(ANN) == frozenset()


def test_a_listing_quicker_than_the_answer_counts_once() -> None:
    playing = Playing()
    playing.listed("m1", computer("m1"))
    with playing.starting(ANN, "m2"):
        playing.listed("m2", hotseat("m2"))  # listed before the opening's answer is back
        assert playing.held(ANN) == {"m1", "m2"}
        start(playing, ANN, "m3")  # two held, not three: a third may start
    playing.listed("m2", None)
    assert playing.held(ANN) == {"m1", "m3"}
