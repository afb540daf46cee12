"""One match on the terminal: watch the seats held, draw the board, send typed commands."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import aiohttp

from clients.arena import ArenaClient, CallError
from clients.cli import perspective
from clients.cli.clocks import count_down
from clients.cli.console import INTERRUPT, Console
from clients.cli.input import (
    Blank,
    Help,
    Quit,
    Send,
    Time,
    Unreadable,
    build_command,
    help_text,
    parse_line,
    to_one,
)
from clients.cli.perspective import Board, Handover, Screen
from clients.cli.reasons import code_of, explain
from clients.cli.render_bid import render_bid
from clients.cli.render_common import Update, clock_line
from clients.cli.render_spit import render_spit
from clients.cli.words import has, t
from games.errors import Malformed, Reason
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2

WATCH_RETRIES = 5
RETRY_PAUSE_S = 1.0


@dataclass(frozen=True, slots=True)
class StreamEnded:
    """A seat's watch stream ended; ``error`` says why when it failed."""

    seat: int
    error: str = ""


def render(screen: Screen, elapsed_ms: int = 0) -> str:
    """Return ``screen`` as text; clocks counted down by ``elapsed_ms`` since the update."""
    if isinstance(screen, Handover):
        rule = "═" * 60
        return f"{rule}\n{t('cli.match.pass_device', name=screen.name)}\n{rule}"
    update = screen.update
    if update.game == game_pb2.GAME_BID:
        times = count_down(update.clock, elapsed_ms) if elapsed_ms else None
        return render_bid(update, screen.show_hand, times, screen.viewer)
    return render_spit(update, screen.viewer)


class MatchScreen:
    """The terminal's side of one match: the latest update per seat and what is shown."""

    def __init__(
        self, client: ArenaClient, console: Console, assignment: matchmaking_pb2.MatchAssignment
    ) -> None:
        self._client = client
        self._console = console
        self._match_id = assignment.match_id
        self._held = tuple(assignment.seats)
        self._game = assignment.game
        self._latest: dict[int, Update] = {}
        self._received_ns = 0
        self._shown: Screen | None = None
        self._shown_key: tuple[object, ...] = ()
        self._events: asyncio.Queue[Update | StreamEnded] = asyncio.Queue()

    async def run(self) -> bool:
        """Play until the match ends, the input ends, or the person leaves the screen;
        return whether the match ended (not left)."""
        watchers = [asyncio.create_task(self._watch(seat)) for seat in self._held]
        line_task: asyncio.Task[str | None] | None = None
        event_task = asyncio.create_task(self._events.get())
        try:
            # Typed lines wait for the first board: a script may type ahead of it.
            if not self._on_event(await event_task):
                return True
            line_task = asyncio.create_task(self._console.read())
            event_task = asyncio.create_task(self._events.get())
            while True:
                assert line_task is not None
                done, _ = await asyncio.wait(
                    {line_task, event_task}, return_when=asyncio.FIRST_COMPLETED
                )
                if event_task in done:
                    if not self._on_event(event_task.result()):
                        return True
                    event_task = asyncio.create_task(self._events.get())
                if line_task in done:
                    line, line_task = line_task.result(), None
                    if not await self._on_line(line):
                        return False
                    line_task = asyncio.create_task(self._console.read())
        finally:
            if line_task is not None:
                self._console.drop_read(line_task)
            event_task.cancel()
            for watcher in watchers:
                watcher.cancel()
            await asyncio.gather(*watchers, event_task, return_exceptions=True)

    async def _watch(self, seat: int) -> None:
        """Stream ``seat``'s updates; a stream cut while the match is live is opened again
        (its first message is the latest update, so nothing is missed for long)."""
        failures, live, problem = 0, True, t("cli.match.stream_ended")
        while live:
            try:
                async for update in self._client.watch(self._match_id, seat):
                    failures, live = 0, update.status == arbitration_pb2.STATUS_LIVE
                    await self._events.put(update)
            except CallError as error:
                await self._events.put(
                    StreamEnded(
                        seat, t("cli.match.refused", reason=code_of(error), why=explain(error))
                    )
                )
                return
            except (aiohttp.ClientError, TimeoutError) as error:
                problem = t("cli.match.connection_lost", error=str(error))
            if live:
                failures += 1
                if failures > WATCH_RETRIES:
                    await self._events.put(StreamEnded(seat, problem))
                    return
                await asyncio.sleep(RETRY_PAUSE_S)
        await self._events.put(StreamEnded(seat))

    def _on_event(self, event: Update | StreamEnded) -> bool:
        """Take an update or a stream's end; return False once the screen is done."""
        if isinstance(event, StreamEnded):
            if event.error:
                self._console.say(t("cli.match.watch_stopped", seat=event.seat, why=event.error))
                return False
            return self._is_live()
        self._latest[event.seat] = event
        self._received_ns = time.monotonic_ns()
        self._draw()
        return self._is_live()

    def _is_live(self) -> bool:
        if not self._latest:
            return True
        return perspective.newest(self._latest).status == arbitration_pb2.STATUS_LIVE

    def _draw(self, again: bool = False) -> None:
        screen = perspective.choose(self._latest, self._held)
        if screen is None:
            return
        key = perspective.key(screen)
        if key == self._shown_key and not again:
            return
        self._shown, self._shown_key = screen, key
        elapsed_ms = (time.monotonic_ns() - self._received_ns) // 1_000_000 if again else 0
        self._console.clear()
        self._console.say(render(screen, elapsed_ms))
        self._console.cue()

    async def _on_line(self, line: str | None) -> bool:
        """Act on a typed line; return False when the person leaves the screen."""
        if line is None or line == INTERRUPT:
            action: object = Quit()
        else:
            action = parse_line(line)
        if isinstance(action, Quit):
            self._console.say(t("cli.match.left"))
            return False
        if isinstance(action, Help):
            self._console.say(help_text(self._game))
        elif isinstance(action, Time):
            self._say_time()
        elif isinstance(action, Blank):
            if isinstance(self._shown, Handover):
                await self._send(Send("reveal", self._shown.seat))
            else:
                self._draw(again=True)
        elif isinstance(action, Send):
            await self._send(action)
        return True

    def _say_time(self) -> None:
        if not self._latest:
            return
        update = perspective.newest(self._latest)
        elapsed_ms = (time.monotonic_ns() - self._received_ns) // 1_000_000
        line = clock_line(update, count_down(update.clock, elapsed_ms))
        self._console.say(line or t("cli.match.no_clock"))

    async def _send(self, action: Send) -> None:
        shown = self._shown.update if isinstance(self._shown, Board) else None
        if shown is None and self._latest:
            shown = perspective.newest(self._latest)
        seats = perspective.route(action.text, action.seat, self._held, shown)
        if isinstance(seats, str):
            self._console.say(seats)
            return
        for seat in seats:
            update = self._latest.get(seat, shown)
            if update is None:
                self._console.say(t("cli.match.no_board"))
                return
            try:
                command = build_command(action.text, update)
            except Malformed as error:
                self._console.say(not_understood(error, action.text))
                return
            if not await self._submit(seat, command):
                return

    async def _submit(self, seat: int, command: game_pb2.Command) -> bool:
        try:
            await self._client.submit(self._match_id, seat, command)
        except CallError as error:
            said = refusal_text(error)
            self._console.say(to_one(said) if self._game == game_pb2.GAME_SPIT else said)
            return False
        except (aiohttp.ClientError, TimeoutError) as error:
            self._console.say(t("cli.match.not_sent", error=str(error)))
            return False
        return True


def refusal_text(error: CallError) -> str:
    """Return a refused command's reason, in words, and the race it lost if it lost one."""
    text = t("cli.match.refused", reason=code_of(error), why=explain(error))
    gap_us = error.metadata.get("gap_us", "")
    landed = error.metadata.get("landed_card", "")
    if landed and gap_us.lstrip("-").isdigit():
        gap = t("time.ms", ms=f"{int(gap_us) / 1000:.3f}")
        text += " " + t("cli.match.got_there_first", card=landed, gap=gap)
    return text


def not_understood(error: Malformed, text: str) -> str:
    """A typed ``text`` the engine's parser could not read, and why, in words."""
    code = error.reason.value
    if isinstance(error, Unreadable):
        why = error.detail
    elif error.reason is Reason.UNKNOWN_COMMAND:
        why = t("cli.input.not_a_command", text=text.strip())
    else:
        why = t(f"reason.{code}") if has(f"reason.{code}") else error.detail
    return t("cli.match.not_understood", reason=code, why=why)


async def play_match(
    client: ArenaClient, console: Console, assignment: matchmaking_pb2.MatchAssignment
) -> bool:
    """Show and play one match until it ends or the person leaves its screen; return
    whether it ended."""
    first, *rest = [*assignment.player_names, ""]
    names = t("names.versus", first=first, second=rest[0]) if len(rest) == 2 else first
    console.say(t("cli.match.opened", match=assignment.match_id, names=names))
    return await MatchScreen(client, console, assignment).run()
