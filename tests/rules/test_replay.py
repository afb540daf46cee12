"""The replay's boards: each step's views are the engine's views of the state the replay
tool reaches over the log up to that step; a page is the same steps as the whole; a log the
engines part from says where."""

from __future__ import annotations

import asyncio
from functools import cache

from games.registry import Game
from games.seats import SEATS
from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import replay_pb2
from services.rules.games import decode_state, entry_for
from services.rules.replay import replay_views
from services.rules.replay_requests import fitted
from tests.tools.test_replay import bid_log, spit_log
from tools.replay import replay

SEED = 11


@cache
def seeded_log(game: int) -> tuple[log_pb2.LogEntry, ...]:
    make = bid_log if game == game_pb2.GAME_BID else spit_log
    return tuple(asyncio.run(make(SEED)))


def whole(log: tuple[log_pb2.LogEntry, ...]) -> replay_pb2.ReplayViews:
    return replay_views(replay_pb2.ReplayViewsRequest(entries=log, steps=len(log)))


def tool_views(game: Game, log: tuple[log_pb2.LogEntry, ...], step: int) -> list[game_pb2.View]:
    """Every seat's view of the state ``tools/replay`` reaches over the log up to ``step``."""
    reached = replay(log[: step + 1], live=True)
    assert reached.identical, str(reached.divergence)
    state = decode_state(game, reached.state)
    return [game.codec.view_to_proto(game.engine.view(state, seat)) for seat in SEATS]


def check_every_board(game_number: int) -> None:
    log = seeded_log(game_number)
    game = entry_for(game_number)
    built = whole(log)
    assert not built.divergence
    assert [step.index for step in built.steps] == list(range(len(log)))
    shown: list[game_pb2.View] = []
    for step in built.steps:
        shown = list(step.views) or shown  # no views: the board stayed as it was
        assert shown == tool_views(game, log, step.index), f"step {step.index}"


def test_every_spit_board_is_the_engines_view_after_replaying_that_far() -> None:
    log = seeded_log(game_pb2.GAME_SPIT)
    assert any(entry.HasField("race") for entry in log)
    check_every_board(game_pb2.GAME_SPIT)


def test_every_bid_board_is_the_engines_view_after_replaying_that_far() -> None:
    assert any(e.kind == log_pb2.ENTRY_KIND_FLAG for e in seeded_log(game_pb2.GAME_BID))
    check_every_board(game_pb2.GAME_BID)


def test_both_hands_are_shown_once_the_match_is_over() -> None:
    built = whole(seeded_log(game_pb2.GAME_BID))
    last = [step for step in built.steps if step.views][-1]
    seats = [view.bid.seat for view in last.views]
    assert seats == [0, 1]
    dealt = [step for step in built.steps if step.views and step.views[0].bid.hand]
    assert all(step.views[1].bid.hand for step in dealt)


def test_refusals_leave_the_board_as_it_was() -> None:
    log = seeded_log(game_pb2.GAME_SPIT)
    built = whole(log)
    refused = [s for s in built.steps if log[s.index].kind == log_pb2.ENTRY_KIND_REFUSED]
    assert refused and all(not step.views for step in refused)


def test_a_page_holds_the_same_steps_as_the_whole_replay() -> None:
    log = seeded_log(game_pb2.GAME_SPIT)
    request = replay_pb2.ReplayViewsRequest(entries=log[:60], first_step=40, steps=20)
    page = replay_views(request)
    assert list(page.steps) == list(whole(log).steps[40:60])


def test_a_tampered_log_stops_at_the_step_the_engines_part_from_it() -> None:
    log = [log_pb2.LogEntry.FromString(e.SerializeToString()) for e in seeded_log(1)]
    accepted = [e for e in log if e.kind == log_pb2.ENTRY_KIND_ACCEPTED and e.command.spit.play]
    target = accepted[len(accepted) // 2]
    target.command.spit.play.pile = 1 - target.command.spit.play.pile
    built = replay_views(replay_pb2.ReplayViewsRequest(entries=log, steps=len(log)))
    assert built.divergence
    assert built.diverged_at <= target.index
    assert len(built.steps) == built.diverged_at


def test_an_answer_over_the_budget_is_cut_to_fewer_steps() -> None:
    built = whole(seeded_log(game_pb2.GAME_BID))
    data = fitted(built, budget_bytes=len(built.SerializeToString()) // 3)
    cut = replay_pb2.ReplayViews.FromString(data)
    assert 0 < len(cut.steps) < len(built.steps)
    assert list(cut.steps) == list(built.steps[: len(cut.steps)])
