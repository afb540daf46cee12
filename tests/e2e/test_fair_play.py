"""Fair play through the real stack: a client that answers every change in well under a
person's reaction is flagged within three rated Spit games, its person-paced opponent is
not; an operator (an account granted the role with tools.operators) reads the case and
marks the account, which then leaves the ladder, is refused rated play, and gives its
opponent back the rating it took; a player is refused every operator's method.

Both clients play through the public API (the computer player's Spit plan, at a chosen
pace): the fast one at a fifth of the hard computer's think time (about 76 ms), the other
at 1.2 times it (a median of about 456 ms, never under 240 ms), as a person would.
"""

from __future__ import annotations

import asyncio
import functools
import os
import secrets
import subprocess
import sys

import aiohttp
import pytest

from clients.arena import ArenaClient, unique_username
from clients.grpcweb import CallError
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2
from services.stack.stack import Stack
from tests.e2e.support import challenge, ended, player, seat_bot
from tests.pace import FAST_PLAY_ENV
from tests.waiting import poll_until

pytestmark = pytest.mark.asyncio(loop_scope="module")

# The gateway's command rate is set for people; the fast client is not one, and the test
# measures the flag, not the limit.
STACK_ENV = FAST_PLAY_ENV
SPIT = game_pb2.GAME_SPIT
FAST_SCALE = 0.2
PERSON_SCALE = 1.2
GAMES = 3
MATCH_TIMEOUT_S = 300.0
MEASURE_S = 30.0  # a guard against a hang, never a speed target


async def play_rated_game(fast: ArenaClient, person: ArenaClient) -> str:
    """One rated Spit game between the two clients; return its match id once measured."""
    fast_seat, person_seat = await challenge(fast, person, SPIT, rated=True)
    ends = await asyncio.wait_for(
        asyncio.gather(
            seat_bot(fast_seat, SPIT, FAST_SCALE).play(),
            seat_bot(person_seat, SPIT, PERSON_SCALE).play(),
        ),
        MATCH_TIMEOUT_S,
    )
    assert all(end.status == arbitration_pb2.STATUS_FINISHED for end in ends), ended(ends)
    return fast_seat.match_id


async def _measured(operator: ArenaClient, match_id: str) -> bool | None:
    """True once the ratings service has measured ``match_id``'s plays."""
    return bool((await operator.match_reactions(match_id)).plays) or None


def grant_operator(stack: Stack, username: str) -> None:
    data_dir = stack.log_dir.parent
    subprocess.run(
        [sys.executable, "-m", "tools.operators", "grant", username],
        env={**os.environ, "PF_DATA_DIR": str(data_dir), "DATABASE_URL": ""},
        check=True,
        capture_output=True,
    )


async def refused(call: object, reason: str) -> None:
    assert asyncio.iscoroutine(call)
    with pytest.raises(CallError) as error:
        await call
    assert error.value.reason == reason, error.value


async def test_a_fast_client_is_flagged_marked_and_refunded_and_a_person_is_not(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    fast = await player(http, stack, "speedy")
    person = await player(http, stack, "steady")
    username, password = unique_username("olga"), secrets.token_urlsafe(18)
    await ArenaClient(http, stack.gateway_url).sign_up(username, password, "a test")
    grant_operator(stack, username)
    # Signed in after the grant: the role is in the session's tokens from now on.
    olga = ArenaClient(http, stack.gateway_url)
    await olga.sign_in_account(username, password, "a test")

    flags: list[ratings_pb2.Flag] = []
    played = []
    for _ in range(GAMES):
        match_id = await play_rated_game(fast, person)
        played.append(match_id)
        measured = functools.partial(_measured, olga, match_id)
        await poll_until("the game measured", measured, MEASURE_S)
        flags = list((await olga.fair_play_queue()).flags)
        if flags:
            break
    assert [f.player_id for f in flags] == [fast.player_id], "the fast client was not flagged"
    assert person.player_id not in {f.player_id for f in flags}
    (flag,) = flags
    assert "median answer" in flag.reactions_why

    # The person's own figures: slower than any flag's threshold, races counted.
    figures = next(g for g in (await person.get_profile(person.player_id)).games).spit
    assert figures.HasField("median_answer_ms") and figures.median_answer_ms > 150

    # A player is refused every operator's method; the operator reads the case.
    for call in (
        person.fair_play_queue(),
        person.fair_play_case(flag.flag_id),
        person.settle_flag(flag.flag_id, ratings_pb2.FLAG_ACTION_CLEAR, "mine"),
        person.match_reactions(played[0]),
        fast.settle_flag(flag.flag_id, ratings_pb2.FLAG_ACTION_CLEAR, "not me"),
    ):
        await refused(call, "operators_only")
    case = await olga.fair_play_case(flag.flag_id)
    assert sum(case.answers) == case.figures.answers and sum(case.everyone_answers) > 0
    assert {g.match_id for g in case.games} == set(played)
    # The operator reads the flagged games' logs (replays), as no other stranger may.
    assert (await olga.match_log(played[0])).entries
    reactions = await olga.match_reactions(played[0])
    assert {p.player_id for p in reactions.plays} == {fast.player_id, person.player_id}

    # The person reports the fast client, once.
    await person.report_opponent(played[-1], ratings_pb2.REPORT_REASON_TOO_FAST)
    await refused(
        person.report_opponent(played[-1], ratings_pb2.REPORT_REASON_PROGRAM), "already_reported"
    )

    losses = [
        line
        for line in (await person.get_history(person.player_id, SPIT)).entries
        if line.verdict == ratings_pb2.VERDICT_LOSS and line.rated
    ]
    lost = -sum(line.change for line in losses)
    before = (await person.get_rating(person.player_id, SPIT)).rating
    settled = await olga.settle_flag(flag.flag_id, ratings_pb2.FLAG_ACTION_MARK, "80 ms answers")
    assert settled.refunds == len(losses) > 0
    after = (await person.get_rating(person.player_id, SPIT)).rating
    assert lost > 0 and after == pytest.approx(before + lost)
    history = (await person.get_history(person.player_id, SPIT)).entries
    assert any(line.verdict == ratings_pb2.VERDICT_REFUND for line in history)
    ladder = await person.ladder(SPIT)
    assert fast.player_id not in {e.player_id for e in ladder.entries}
    assert (await fast.get_rating(fast.player_id, SPIT)).barred
    stream = fast.create_challenge(SPIT, True)
    await refused(anext(stream), "barred")
    assert (await olga.fair_play_queue()).flags == []
