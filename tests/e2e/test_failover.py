"""kill -9 the arbitration mid-match: the restarted instance takes its matches back.

A casual match plays on to a correct finish; a rated match whose clock was running when
the owner died is voided (nobody measured its time meanwhile); a command retried across
the crash is answered, not applied twice. kill -9 the rules instance holding a match: its
next command is judged all the same, once.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import aiohttp

from clients.bots.seat import SeatPlayer
from clients.bots.watching import Reconnect
from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.stack.stack import Stack, StackConfig, run_stack
from tests.e2e.support import (
    Seated,
    challenge,
    first_end,
    metric,
    next_update,
    player,
    seat_bot,
    stored,
    until,
)
from tests.pace import FAST_PLAY_ENV  # its bots play with no think time
from tools.replay import replay
from wire import subjects

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
SUBMIT = "/photofinish.client.v1.Arena/Submit"


async def latest(seated: Seated) -> arbitration_pb2.MatchUpdate:
    return await next_update(seated.client.watch(seated.match_id, seated.seat))


def bot(seated: Seated) -> SeatPlayer:
    return seat_bot(seated, game_pb2.GAME_BID, 0.0, Reconnect(first_s=0.1))


async def first_move(casual: tuple[Seated, Seated]) -> tuple[Seated, arbitration_pb2.SubmitRequest]:
    """Return the seat to move in a Bid match and its first legal bid, with a known client_seq."""
    before = await latest(casual[0])
    mover = casual[before.decision.seats[0] == casual[1].seat]
    view = (await latest(mover)).view.bid
    return mover, arbitration_pb2.SubmitRequest(
        match_id=mover.match_id,
        seat=mover.seat,
        client_seq=mover.client.next_client_seq(),
        command=game_pb2.Command(bid=view.legal[0]),
    )


async def play_to_a_correct_finish(pair: tuple[Seated, Seated]) -> None:
    """Let bots finish a Bid match; both see the same outcome and the chips are all there."""
    bots = [bot(seated) for seated in pair]
    try:
        finals = await asyncio.wait_for(asyncio.gather(*(b.play() for b in bots)), 120)
    except TimeoutError:
        raise AssertionError(f"unfinished: {[b.tally for b in bots]}") from None
    assert {final.status for final in finals} == {arbitration_pb2.STATUS_FINISHED}
    assert finals[0].outcome == finals[1].outcome
    assert sum(finals[0].view.bid.balances) == 300


async def past_the_start(
    http: aiohttp.ClientSession, stack: Stack, a: str, b: str
) -> tuple[tuple[Seated, Seated], Seated, arbitration_pb2.SubmitRequest]:
    """Return a casual Bid match between ``a`` and ``b`` past its start gate, the seat to
    move, and its first move (not sent yet)."""
    casual = await challenge(
        await player(http, stack, a), await player(http, stack, b), game_pb2.GAME_BID, rated=False
    )
    for seated in casual:
        await seated.submit(READY)
    mover, request = await first_move(casual)
    return casual, mover, request


async def finished_with_it_once(
    casual: tuple[Seated, Seated],
    mover: Seated,
    request: arbitration_pb2.SubmitRequest,
    first: arbitration_pb2.SubmitReply,
) -> None:
    """Let bots finish the match; its log holds ``request`` once, accepted as ``first``
    said, and replays identical."""
    await play_to_a_correct_finish(casual)
    log = await mover.client.match_log(mover.match_id)
    moved = [e for e in log.entries if (e.seat, e.client_seq) == (mover.seat, request.client_seq)]
    assert [(e.kind, e.seq) for e in moved] == [(log_pb2.ENTRY_KIND_ACCEPTED, first.seq)]
    assert replay(log.entries).identical


async def test_a_killed_arbitration_comes_back_with_its_matches(tmp_path: Path) -> None:
    async with (
        run_stack(StackConfig(tmp_path, with_bots=False, extra_env=FAST_PLAY_ENV)) as stack,
        aiohttp.ClientSession() as http,
    ):
        casual = await challenge(
            await player(http, stack, "Kim"),
            await player(http, stack, "Lee"),
            game_pb2.GAME_BID,
            rated=False,
        )
        rated = await challenge(
            await player(http, stack, "Max"),
            await player(http, stack, "Noa"),
            game_pb2.GAME_BID,
            rated=True,
        )
        for seated in (*casual, *rated):
            await seated.submit(READY)
        await until(
            rated[0].client.watch(rated[0].match_id, rated[0].seat), lambda u: u.clock.running >= 0
        )
        # The casual match's first move, sent with a known client_seq.
        mover, request = await first_move(casual)
        first = await mover.client.web.unary(SUBMIT, request, arbitration_pb2.SubmitReply)

        await stack.stop("arbitration", signal.SIGKILL)
        await stack.start_again("arbitration")

        retried = await mover.client.web.unary(SUBMIT, request, arbitration_pb2.SubmitReply)
        assert retried == first  # answered from the snapshot, not applied again
        assert (await latest(casual[0])).seq == first.seq

        voided = await first_end(rated[0].client.watch(rated[0].match_id, rated[0].seat))
        assert voided.status == arbitration_pb2.STATUS_VOIDED
        assert voided.void_reason.startswith("arbitration_restart")

        await play_to_a_correct_finish(casual)


async def test_a_killed_rules_instance_loses_no_command_of_its_matches(tmp_path: Path) -> None:
    """The rules instance holding a match is killed and another starts (under the same
    name, as in the stack): the next command, stored first and fed to the new instance,
    is answered not held and asked for directly; the match is rebuilt on the new instance
    from its log, answers that command once, and plays on."""
    async with (
        run_stack(StackConfig(tmp_path, with_bots=False, extra_env=FAST_PLAY_ENV)) as stack,
        aiohttp.ClientSession() as http,
    ):
        casual, mover, request = await past_the_start(http, stack, "Ola", "Pia")

        await stack.restart("rules", signal.SIGKILL)  # a new process, under the same name

        first = await mover.client.web.unary(SUBMIT, request, arbitration_pb2.SubmitReply)
        assert first.seq > 0
        asked = await metric(http, stack, "arbitration", "pf_stored_commands_asked_directly_total")
        assert asked == {"why=not_held": 1}  # the new instance, under the old name, holds nothing
        # Asked directly, its judged entry was stored on its own before it was answered.
        logged = await stored(stack, subjects.match_log(mover.match_id))
        assert [
            e.seq
            for e in logged
            if (e.kind, e.seat, e.client_seq)
            == (log_pb2.ENTRY_KIND_ACCEPTED, mover.seat, request.client_seq)
        ] == [first.seq]
        retried = await mover.client.web.unary(SUBMIT, request, arbitration_pb2.SubmitReply)
        assert retried == first  # answered once, not applied again
        assert (await latest(casual[0])).seq == first.seq

        await finished_with_it_once(casual, mover, request, first)


async def test_a_stalled_rules_instance_judges_a_command_once(tmp_path: Path) -> None:
    """The rules instance holding a match stops for a second: the command stored meanwhile
    gets no answer in time and is asked for directly; when the instance wakes it judges
    the command the log fed it and then is asked for it again, at a version it has left:
    the match is rebuilt from its log and the command counts once."""
    async with (
        run_stack(StackConfig(tmp_path, with_bots=False, extra_env=FAST_PLAY_ENV)) as stack,
        aiohttp.ClientSession() as http,
    ):
        casual, mover, request = await past_the_start(http, stack, "Rai", "Sol")

        rules = stack.children["rules"].process.pid
        os.kill(rules, signal.SIGSTOP)
        try:
            answer = asyncio.create_task(
                mover.client.web.unary(SUBMIT, request, arbitration_pb2.SubmitReply)
            )
            await asyncio.sleep(1.0)  # past the wait for the log-fed answer (0.5 s)
        finally:
            os.kill(rules, signal.SIGCONT)
        first = await answer
        assert first.seq > 0
        asked = await metric(http, stack, "arbitration", "pf_stored_commands_asked_directly_total")
        assert asked["why=timeout"] == 1
        retried = await mover.client.web.unary(SUBMIT, request, arbitration_pb2.SubmitReply)
        assert retried == first

        await finished_with_it_once(casual, mover, request, first)
