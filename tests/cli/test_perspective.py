"""What a terminal shows and where a typed command goes, one seat held or both (hot-seat)."""

from __future__ import annotations

from clients.cli.perspective import Board, Handover, choose, key, route
from games import bid, spit
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from tests.cli.positions import bid_update, spit_update, walk_until

BOTH = (0, 1)


def _playing() -> bid.State:
    start = bid.new_match(bid.Options(), 5)
    state: bid.State = walk_until(bid, start, lambda s: len(s.board.placements) >= 2, seed=1)[0]
    return state


def test_one_seat_held_always_shows_that_seat_with_its_hand() -> None:
    update = bid_update(_playing(), 1)
    assert choose({1: update}, (1,)) == Board(update, 1, True)


def test_a_hand_over_shows_only_the_banner_for_the_next_seat() -> None:
    state = _playing()
    latest = {seat: bid_update(state, seat, seq=9) for seat in BOTH}
    for update in latest.values():
        update.decision.CopyFrom(game_pb2.Decision(seats=[1], gate=game_pb2.GATE_HANDOVER))
    assert choose(latest, BOTH) == Handover(1, "Bea", 9)


def test_after_the_reveal_the_deciding_seat_is_shown_once_its_own_copy_arrived() -> None:
    state = _playing()
    (seat,) = bid.decision(state).seats
    other = 1 - seat
    early = {other: bid_update(state, other, seq=10)}
    assert choose(early, BOTH) is None  # never the other seat's board in the meantime
    latest = {**early, seat: bid_update(state, seat, seq=10)}
    screen = choose(latest, BOTH)
    assert screen == Board(latest[seat], seat, True)


def test_a_stale_copy_of_the_deciding_seat_is_not_shown() -> None:
    state = _playing()
    (seat,) = bid.decision(state).seats
    latest = {seat: bid_update(state, seat, seq=3), 1 - seat: bid_update(state, 1 - seat, seq=4)}
    assert choose(latest, BOTH) is None


def test_a_gate_on_a_shared_device_shows_the_board_without_any_hand() -> None:
    start = bid.new_match(bid.Options(), 2)
    latest = {seat: bid_update(start, seat) for seat in BOTH}
    screen = choose(latest, BOTH)
    assert isinstance(screen, Board) and not screen.show_hand and screen.viewer == -1


def test_spit_on_a_shared_device_shows_both_sides_by_name() -> None:
    update = spit_update(spit.new_match(spit.Options(), 2), 0)
    assert choose({0: update}, BOTH) == Board(update, -1, True)


def test_a_race_notice_is_a_new_screen_for_the_same_step() -> None:
    update = spit_update(spit.new_match(spit.Options(), 2), 0)
    before = key(Board(update, 0, True))
    update.race.CopyFrom(arbitration_pb2.Race(pile=0, gap_us=5))
    assert key(Board(update, 0, True)) != before


def test_commands_go_to_the_only_seat_held() -> None:
    assert route("play 2 0", None, (1,), None) == (1,)


def test_ready_on_a_shared_device_presses_for_every_seat_still_to_press() -> None:
    start = bid.new_match(bid.Options(), 2)
    assert route("ready", None, BOTH, bid_update(start, 0)) == (0, 1)
    pressed = bid.apply(start, min(bid.decision(start).seats), bid.Ready()).state
    assert len(route("ready", None, BOTH, bid_update(pressed, 0))) == 1


def test_a_shared_device_sends_to_the_deciding_seat_or_asks_which_seat() -> None:
    state = _playing()
    (seat,) = bid.decision(state).seats
    assert route("draw", None, BOTH, bid_update(state, seat)) == (seat,)
    racing, _ = walk_until(spit, spit.new_match(spit.Options(), 3), lambda s: s.version > 4)
    assert "@0 or @1" in str(route("play 1 0", None, BOTH, spit_update(racing, 0)))
    assert route("play 1 0", 1, BOTH, spit_update(racing, 0)) == (1,)
    assert "does not hold seat 1" in str(route("play 1 0", 1, (0,), None))
