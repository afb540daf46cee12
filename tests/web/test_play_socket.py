"""The page plays on the play socket (/play): its commands and updates go there, never over
gRPC-web while the socket is open; a reload resumes the match on a fresh socket, with
client_seq still increasing; refusals read as they do over gRPC-web; a lost socket is
reconnected, and a refusal that ends the conversation stops the page with its reason; an
update lost on the way has the page open another socket, whose first update is whole."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable
from typing import Any

import aiohttp
import pytest
from playwright.async_api import Page, WebSocketRoute

from clients.arena import ArenaClient
from clients.grpcweb import CallError
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.client.v1 import play_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import bid_pb2, game_pb2, spit_pb2
from tests.web.bidding import bid_view, current, describe, play_step, wait_for_newer
from tests.web.browser import click_if_shown, english, new_page, screenshot, sign_in
from tests.web.conftest import Arena
from tests.web.sockets import Traffic
from tests.web.test_away_page import a_play
from tests.web.test_spit import take_next_move
from tests.web.test_spit_notices import Duel, duel, plays, until

pytestmark = pytest.mark.asyncio(loop_scope="module")

STEP_LIMIT = 200
GATE_NONE = 0
WAIT_S = 20.0
LOST = "Connection lost: reconnecting… (the clock keeps running)"


async def eventually(check: Callable[[], bool], what: str) -> None:
    for _ in range(int(WAIT_S / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    pytest.fail(f"never: {what}")


async def play_until(page: Page, commands: Callable[[], int], wanted: int) -> None:
    """Take the page's obvious actions (accepting, never bidding) until ``commands()``
    reaches ``wanted``."""
    state: dict[str, bool] = {}
    for _ in range(STEP_LIMIT):
        if commands() >= wanted:
            return
        update = await current(page)
        live = update["status"] == arbitration_pb2.STATUS_LIVE
        assert live, f"the match ended too soon: {describe(update)}"
        seat, gate = update["seat"], update["decision"]["gate"]
        if gate != GATE_NONE or bid_view(update)["decide"] == [seat]:
            await play_step(page, update["seq"], False, state)
        try:
            await wait_for_newer(page, update["seq"])
        except Exception:
            continue
    pytest.fail(f"{wanted} commands were not sent")


async def plays_listed(page: Page) -> list[tuple[int, str]]:
    """The plays list's lines as the page shows them: (number, words)."""
    lines: list[tuple[int, str]] = await page.locator(".play-log li").evaluate_all(
        "items => items.map(li => [li.value, li.textContent])"
    )
    return [(number, words) for number, words in lines]


async def test_the_page_plays_on_the_socket_and_a_reload_resumes_on_a_fresh_one(
    arena: Arena,
) -> None:
    page = await new_page(arena.browser, arena.url)
    traffic = Traffic(page)
    await sign_in(page, "Socketeer")
    await page.click("#bid-computer")
    await page.wait_for_selector(".bid-table")
    await play_until(page, lambda: len(traffic.submits()), 3)
    await eventually(lambda: not traffic.unanswered(), "every command answered on the socket")

    [first] = traffic.sockets
    update = await current(page)
    hello = first.hello()
    assert (hello.match_id, hello.seat) == (update["matchId"], update["seat"]) and hello.token
    assert [m.WhichOneof("kind") for m in first.sent[1:]] == ["submit"] * len(first.submits())
    seqs = [s.client_seq for s in first.submits()]
    assert seqs == sorted(set(seqs)), seqs
    assert first.received[0].WhichOneof("kind") == "update"
    shown = int(update["seq"])
    await eventually(lambda: shown in {u.seq for u in first.updates()}, "the shown update")
    assert "Submit" not in traffic.calls and "Watch" not in traffic.calls, traffic.calls
    await screenshot(page, "socket-bid-before-reload")

    before = await current(page)
    listed = await plays_listed(page)
    assert listed, "nothing in the plays list before the reload"
    await page.reload()
    await page.wait_for_selector(".bid-table")
    # The plays seen before the reload are listed after it, numbered on (the tab kept them).
    await page.wait_for_selector(".play-log li")
    again = await plays_listed(page)
    assert again[0][0] <= listed[-1][0], (listed, again)
    assert [line for line in again if line[0] <= listed[-1][0]] == [
        line for line in listed if line[0] >= again[0][0]
    ]
    await eventually(lambda: len(traffic.sockets) == 2, "a fresh socket after the reload")
    resumed = traffic.sockets[1]
    await eventually(lambda: bool(resumed.updates()), "the resumed socket's first update")
    hello = resumed.hello()
    assert (hello.match_id, hello.seat) == (before["matchId"], before["seat"])
    assert resumed.updates()[0].seq >= int(before["seq"])
    await play_until(page, lambda: len(resumed.submits()), 1)
    await eventually(lambda: not traffic.unanswered(), "the resumed socket's answers")
    assert resumed.submits()[0].client_seq > seqs[-1]  # increasing across the reload
    assert "Submit" not in traffic.calls and "Watch" not in traffic.calls, traffic.calls
    await screenshot(page, "socket-bid-after-reload")


def _draw() -> game_pb2.Command:
    return game_pb2.Command(bid=bid_pb2.BidCommand(draw=bid_pb2.BidDraw()))


RACE = events_pb2.Refusal(
    code=9,
    reason="pile_top_changed",
    message="the pile's top changed before this card arrived",
    metadata={"landed_card": "Q♥", "gap_us": "2500"},
)


class Relay:
    """Between the page's play sockets and the gateway: each submit goes as ``plans`` says
    ("draw": changed into a draw, "race": answered with ``RACE`` here, else unchanged);
    a second socket's hello asks for ``other_seat``."""

    def __init__(self) -> None:
        self.plans: list[str] = []
        self.routes: list[WebSocketRoute] = []
        self.servers: list[WebSocketRoute] = []
        self.submits: list[play_pb2.PlaySubmit] = []
        self.answers: dict[int, play_pb2.PlayAnswer] = {}
        self.closed: list[events_pb2.Refusal] = []
        self.other_seat = -1

    def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        self.routes.append(ws)
        self.servers.append(server)
        ws.on_message(lambda frame: self._from_page(ws, server, frame))
        server.on_message(lambda frame: self._from_server(ws, frame))

    def _from_page(self, ws: WebSocketRoute, server: WebSocketRoute, frame: bytes | str) -> None:
        assert isinstance(frame, bytes)
        message = play_pb2.PlayIn.FromString(frame)
        if message.WhichOneof("kind") == "hello" and len(self.routes) > 1:
            message.hello.seat = self.other_seat
        elif message.WhichOneof("kind") == "submit":
            plan = self.plans.pop(0) if self.plans else ""
            if plan == "race":
                answer = play_pb2.PlayAnswer(client_seq=message.submit.client_seq, refusal=RACE)
                ws.send(play_pb2.PlayOut(answer=answer).SerializeToString())
                return
            if plan == "draw":
                message.submit.command.CopyFrom(_draw())
            self.submits.append(message.submit)
        server.send(message.SerializeToString())

    def _from_server(self, ws: WebSocketRoute, frame: bytes | str) -> None:
        assert isinstance(frame, bytes)
        message = play_pb2.PlayOut.FromString(frame)
        if message.WhichOneof("kind") == "answer":
            self.answers[message.answer.client_seq] = message.answer
        elif message.WhichOneof("kind") == "closed":
            self.closed.append(message.closed)
        ws.send(frame)


async def notice(page: Page, tone: str) -> str:
    return await page.locator(f".notices .notice.{tone}").first.inner_text()


async def test_refusals_on_the_socket_read_as_over_grpc_web_and_a_lost_socket_reconnects(
    arena: Arena,
) -> None:
    page = await new_page(arena.browser, arena.url)
    relay = Relay()
    await page.route_web_socket(re.compile(r"/play$"), relay.route)
    await sign_in(page, "Relayed")
    await page.click("#bid-computer")
    await page.wait_for_selector("#ready")
    update: dict[str, Any] = await current(page)
    match_id, seat = update["matchId"], update["seat"]
    relay.other_seat = 1 - seat

    relay.plans = ["draw", "race"]
    await page.click("#ready")  # changed into a draw on the way: the rules refuse it
    await page.wait_for_selector(".notices .notice.refusal")
    [refused] = relay.submits
    assert relay.answers[refused.client_seq].WhichOneof("kind") == "refusal"
    async with aiohttp.ClientSession() as session:
        client = ArenaClient(session, arena.url)
        client.web.token = await token_of(page)
        # The same client_seq over gRPC-web: the first answer again, as gRPC-web tells it.
        with pytest.raises(CallError) as over_grpc_web:
            await client.submit(match_id, seat, _draw(), client_seq=refused.client_seq)
        error = over_grpc_web.value
        assert await notice(page, "refusal") == f"Refused: {english(f'reason.{error.reason}')}"

        await page.click("#ready")  # answered on the way with a lost race
        await page.wait_for_selector(".notices .notice.race")
        assert await notice(page, "race") == "Q♥ beat your card by 2.5 ms"
        await page.click("#ready")  # unchanged: accepted
        await page.wait_for_selector("#ready", state="detached")
        assert len(relay.submits) == 2 and relay.answers[relay.submits[1].client_seq].HasField(
            "reply"
        )

        # The connection is lost: the page says so and opens another socket, whose hello
        # the relay turns to the other seat: the gateway ends that conversation.
        await relay.routes[0].close(code=1011, reason="")
        await relay.servers[0].close(code=1000, reason="")
        await page.wait_for_selector(f".notices .notice.info:text-is('{LOST}')")
        await page.wait_for_selector(".notices .notice.refusal:text-matches('^Watching')")
        assert len(relay.routes) == 2 and len(relay.closed) == 1
        with pytest.raises(CallError) as watching:
            async for _ in client.watch(match_id, 1 - seat):
                pass
        error = watching.value
        assert relay.closed[0].reason == error.reason == "not_your_seat"
        assert await notice(page, "refusal") == (
            f"Watching seat {seat} stopped: {english(f'reason.{error.reason}')}"
        )
    await screenshot(page, "socket-refusals")
    await page.wait_for_timeout(2500)
    assert len(relay.routes) == 2  # stopped: no third socket


async def token_of(page: Page) -> str:
    token: str = await page.evaluate("() => JSON.parse(localStorage.getItem('pf.session')).token")
    return token


async def test_an_update_lost_on_the_way_opens_another_socket_and_the_table_catches_up(
    arena: Arena,
) -> None:
    """A step's update that never reached the page (as a gateway whose NATS link dropped for a
    moment loses one): the next step's change does not follow the page's table, so the page
    opens another socket at once, whose first update holds the whole view, and shows the
    table the server holds, without a word of a lost connection."""
    async with duel(arena) as match:
        view = await until(match, match.ben_seat)
        stock, pile = plays(view, match.ben_seat)[0]
        match.updates.dropping = 1
        lost = await match.ben_plays(stock, pile, view["centre"][pile]["top"]["rank"])
        after = await a_step_after(match, lost)
        await match.page.wait_for_function(
            "seq => { const u = window.__pf.last()?.update; "
            "return u && BigInt(u.seq) >= BigInt(seq) && u.view?.kind?.case === 'spit'; }",
            arg=str(after),
        )
        assert match.updates.sockets == 2
        server = await ann_view_from_server(match, arena.url)
        shown = await match.view()
        assert [c["top"]["rank"] for c in shown["centre"]] == [c.top.rank for c in server.centre]
        for seat, side in enumerate(server.sides):
            assert [p.get("top", {}).get("rank", 0) for p in shown["sides"][seat]["stock"]] == [
                p.top.rank for p in side.stock
            ]
        assert LOST not in await match.page.inner_text(".notices")
        await screenshot(match.page, "socket-caught-up")


async def a_step_after(match: Duel, seq: int) -> int:
    """Have the match take a step past ``seq`` (Ben plays or moves from the table the server
    holds; else Ann's page from its own, or the table spits by itself); return its seq."""
    ready = game_pb2.Command(spit=spit_pb2.SpitCommand(ready=spit_pb2.SpitReady()))
    for _ in range(STEP_LIMIT):
        async with contextlib.aclosing(match.ben.watch(match.match_id, match.ben_seat)) as w:
            update = await anext(w)
        if update.seq > seq:
            return update.seq
        gate = update.decision.gate
        with contextlib.suppress(CallError):  # the table moved meanwhile: look again
            if gate in (game_pb2.GATE_START, game_pb2.GATE_CONTINUE):
                await click_if_shown(match.page, "#ready")
                if match.ben_seat in update.view.spit.must_press:
                    await match.ben_sends(ready)
            elif gate == game_pb2.GATE_NONE:
                if command := a_play(update, match.ben_seat) or a_move(update, match.ben_seat):
                    await match.ben_sends(command)
                else:
                    await take_next_move(match.page)
        await asyncio.sleep(0.2)
    pytest.fail(f"no step after seq {seq}")


def a_move(update: arbitration_pb2.MatchUpdate, seat: int) -> game_pb2.Command | None:
    """A move of ``seat``'s that uncovers a face-down card into an empty space."""
    stock = update.view.spit.sides[seat].stock
    empty = [index for index, pile in enumerate(stock) if not pile.HasField("top")]
    for index, pile in enumerate(stock):
        if empty and pile.HasField("top") and pile.hidden:
            return game_pb2.Command(
                spit=spit_pb2.SpitCommand(move=spit_pb2.SpitMove(src=index, dst=empty[0]))
            )
    return None


async def ann_view_from_server(match: Duel, url: str) -> spit_pb2.SpitView:
    """Ann's table as the server holds it: the first update of a Watch of her seat."""
    async with aiohttp.ClientSession() as session:
        ann = ArenaClient(session, url)
        ann.web.token = await token_of(match.page)
        async with contextlib.aclosing(ann.watch(match.match_id, match.ann_seat)) as w:
            update = await anext(w)
    return update.view.spit
