"""The CLI against the real stack (no bot pool), typed into through a pipe like a person."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import nats
import pytest
import pytest_asyncio

from clients.arena import ArenaClient
from clients.cli.console import Console
from clients.cli.names import shown_name
from clients.cli.profile import show_from_ladder
from clients.cli.render_common import LABEL_WIDTH
from clients.cli.words import pad, speaking, t
from games.registry import SPIT
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2
from services.ratings.model import Finished, MatchId, Mode, Player, PlayerId
from services.stack.stack import Stack, StackConfig, run_stack
from tests.cli.terminal import Terminal, first_legal
from tests.ratings.results import publish
from tests.waiting import poll_until

pytestmark = pytest.mark.asyncio(loop_scope="module")

MENU = r"^choose 1–8:"
BANNER = r"^Pass the device to (.+)\. Press Enter to reveal your hand\.$"


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def stack(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stack]:
    data_dir: Path = tmp_path_factory.mktemp("stack")
    async with run_stack(StackConfig(data_dir, with_bots=False)) as running:
        yield running


@pytest_asyncio.fixture(loop_scope="module")
async def terminals(stack: Stack, tmp_path: Path) -> AsyncIterator[list[Terminal]]:
    started: list[Terminal] = []
    yield started
    for terminal in started:
        terminal.kill()


async def open_terminal(
    stack: Stack, terminals: list[Terminal], tmp_path: Path, name: str
) -> Terminal:
    terminal = await Terminal.start(stack.gateway_url, name, tmp_path / f"{name}.stderr")
    terminals.append(terminal)
    await terminal.expect(f"^Signed in as {name}")
    return terminal


async def quit_client(terminal: Terminal) -> None:
    await terminal.expect(MENU)
    await terminal.send("8")
    assert await terminal.finish() == 0, terminal.text()
    assert terminal.transcript[-1] == "Bye."


async def play_hot_seat(terminal: Terminal, moves: int) -> str:
    """Answer gates, hand-overs and legal lists; resign after ``moves``; return the ending."""
    made = 0
    both_to_press = r"gate     \w+: waiting for .+, .+ to press ready"
    pattern = rf"^(legal    .*|{both_to_press}|MATCH OVER.*)$|{BANNER}"
    while True:
        line = (await terminal.expect(pattern)).group(0)
        if line.startswith("MATCH OVER"):
            return line
        if line.startswith("Pass the device"):
            await terminal.send("")  # Enter reveals
        elif line.startswith("gate"):
            await terminal.send("ready")  # presses for both seats
        else:
            await terminal.send(first_legal(line) if made < moves else "resign")
            made += 1


def assert_hands_only_after_their_banner(transcript: list[str]) -> None:
    """Every hand printed belongs to the seat the device was last handed to."""
    handed_to, you = "", ""
    hands = 0
    for line in transcript:
        if line.startswith("Pass the device to "):
            handed_to = line.removeprefix("Pass the device to ").split(". Press")[0]
        elif line.startswith("chips"):
            you = next((part for part in line.split(" · ") if "(you)" in part), "")
        elif line.startswith("hand     ["):
            hands += 1
            # The banner names the seat as anyone sees it; its own board marks it "(you)".
            seat = handed_to.removesuffix(" (guest)")
            assert seat and f"{seat} (you)" in you, (handed_to, you)
    assert hands > 0


async def test_hot_seat_bid_from_ready_to_resignation(
    stack: Stack, terminals: list[Terminal], tmp_path: Path
) -> None:
    terminal = await open_terminal(stack, terminals, tmp_path, "alice")
    await terminal.expect(MENU)
    await terminal.send("2")  # hot-seat
    await terminal.expect(r"^choose 1–2:")
    await terminal.send("2")  # Spectacular Bid
    ending = await play_hot_seat(terminal, moves=6)
    assert re.fullmatch(r"MATCH OVER: alice \([12]\) \(guest\) wins \(by resignation\)\.", ending)
    await quit_client(terminal)
    text = terminal.text()
    assert "gate     start: waiting for alice (1) (guest), alice (2) (guest) to press ready" in text
    assert any(line.startswith("board    [") for line in terminal.transcript)
    assert any(line.startswith("open     [") for line in terminal.transcript)
    assert "clock    alice (1) (guest) grace" in text
    assert [line for line in terminal.transcript if line.startswith("refused")] == []
    assert_hands_only_after_their_banner(terminal.transcript)


async def test_two_terminals_meet_in_the_queue_after_one_left_it_with_ctrl_c(
    stack: Stack, terminals: list[Terminal], tmp_path: Path
) -> None:
    ann = await open_terminal(stack, terminals, tmp_path, "ann")
    await ann.expect(MENU)
    for answer in ("3", "1"):  # queue, Spit: a guest plays casual, and is told why
        await ann.send(answer)
    await ann.expect(r"^casual: rated games are for accounts")
    await ann.expect(r"^waiting \(1 in queue\)")
    ann.interrupt()
    await ann.expect(r"^left$")
    await ann.expect(MENU)
    for answer in ("queue", "spit"):
        await ann.send(answer)
    await ann.expect(r"^waiting \(1 in queue\)")  # the ticket Ctrl-C left is gone
    ben = await open_terminal(stack, terminals, tmp_path, "ben")
    await ben.expect(MENU)
    for answer in ("3", "1"):
        await ben.send(answer)
    for terminal in (ann, ben):
        await terminal.expect(r"^Match \S+: ")
        await terminal.expect(r"^gate     start: waiting for .*\(you\)")
        await terminal.send("ready")
    await ann.expect(r"^centre   pile 1: \S+ \(1 card\)")
    await ben.send("resign")
    assert (await ann.expect(r"^MATCH OVER.*")).group(0) == "MATCH OVER: You win (by resignation)."
    ending = (await ben.expect(r"^MATCH OVER.*")).group(0)
    assert ending == "MATCH OVER: ann (guest) wins (by resignation)."
    await quit_client(ann)
    await quit_client(ben)
    assert "stock    ann (you)" in ann.text() and "stock    ben (you)" in ben.text()


async def test_a_challenge_code_brings_two_terminals_into_one_bid_match(
    stack: Stack, terminals: list[Terminal], tmp_path: Path
) -> None:
    cat = await open_terminal(stack, terminals, tmp_path, "cat")
    await cat.expect(MENU)
    for answer in ("4", "2"):  # create a challenge, Spectacular Bid (casual: a guest)
        await cat.send(answer)
    code = (await cat.expect(r"^challenge code: (\S+)$")).group(1)
    dan = await open_terminal(stack, terminals, tmp_path, "dan")
    await dan.expect(MENU)
    await dan.send("5")
    await dan.expect(r"^challenge code:")
    await dan.send(code)
    for terminal in (cat, dan):
        await terminal.expect(r"^gate     start: waiting for .*\(you\)")
        await terminal.send("ready")
    await cat.expect(r"^to move  ")
    await cat.send("dance")
    assert (await cat.expect(r"^not understood .*")).group(0) == (
        "not understood (unknown_command): “dance” is not a command (type help for the list)"
    )
    await cat.send("draw")  # refused either way: the opener holds a tile to open with
    refusal = (await cat.expect(r"^refused \((\w+)\): .+")).group(1)
    assert refusal in ("can_play", "not_your_decision")
    await dan.send("resign")
    assert (await cat.expect(r"^MATCH OVER.*")).group(0) == "MATCH OVER: You win (by resignation)."
    await dan.expect(r"^MATCH OVER: cat \(guest\) wins")
    await quit_client(cat)
    await quit_client(dan)


async def test_a_tournament_made_in_one_terminal_plays_game_after_game_in_two(
    stack: Stack, terminals: list[Terminal], tmp_path: Path
) -> None:
    eve = await open_terminal(stack, terminals, tmp_path, "eve")
    await eve.expect(MENU)
    await eve.send("tournaments")
    await eve.expect(r"^choose 1–5:")
    await eve.send("create")
    await eve.expect(r"^tournament name:")
    for answer in ("Terminal Cup", "spit", "5", ""):  # casual (a guest), 5 minutes, now
        await eve.send(answer)
    await eve.expect(r"^joined Terminal Cup: your games start by themselves$")
    waiting = (await eve.expect(r"^tournament Terminal Cup: .*")).group(0)
    assert "left; you: #1 of 1, 0 points — waiting for your next game" in waiting
    fay = await open_terminal(stack, terminals, tmp_path, "fay")
    await fay.expect(MENU)
    for answer in ("7", "join"):
        await fay.send(answer)
    listed = (await fay.expect(r"^  1\. Terminal Cup .*")).group(0)
    assert listed == "  1. Terminal Cup · Spit · casual · live · 1 entrant"
    await fay.send("1")
    matches = []
    for _ in range(2):  # each game begins with no input, the second too
        ids = set()
        for terminal in (eve, fay):
            await terminal.expect(r"^tournament game in Terminal Cup$")
            ids.add((await terminal.expect(r"^Match (\S+): ")).group(1))
            await terminal.expect(r"^gate     start: waiting for .*\(you\)")
        assert len(ids) == 1
        matches.append(ids.pop())
        await fay.send("resign")
        await eve.expect(r"^MATCH OVER: You win \(by resignation\)\.$")
        await fay.expect(r"^MATCH OVER: eve \(guest\) wins \(by resignation\)\.$")
    assert matches[0] != matches[1]
    # The third game begins too; leaving its screen leaves the tournament's games.
    for terminal in (eve, fay):
        await terminal.expect(r"^tournament game in Terminal Cup$")
        await terminal.expect(r"^gate     start: waiting for .*\(you\)")
        await terminal.send("quit")
        await terminal.expect(r"^left the tournament's games \(you stay entered")
    for terminal in (eve, fay):
        await quit_client(terminal)
    assert re.search(r"you: #1 of 2, [2-9] points", eve.text()), eve.text()


def said(language: str, key: str, **values: str | int) -> str:
    """A line as the client says it in ``language``."""
    with speaking(language):
        return t(key, **values)


async def expect_said(terminal: Terminal, language: str, key: str, **values: str | int) -> str:
    """Wait for the exact line ``key`` says in ``language``; return it."""
    line = said(language, key, **values)
    await terminal.expect(f"^{re.escape(line)}$")
    return line


async def test_an_arabic_and_a_korean_terminal_play_one_challenge_each_in_its_own_language(
    stack: Stack, terminals: list[Terminal], tmp_path: Path
) -> None:
    """One terminal speaks Arabic because its locale does (LANG=ar_EG.UTF-8), the other
    Korean because --lang says so; each reads the menus, the board, a refusal and the ending
    in its own language, from the same match."""
    hala = await Terminal.start(
        stack.gateway_url, "hala", tmp_path / "hala.stderr", env={"LANG": "ar_EG.UTF-8"}
    )
    minji = await Terminal.start(
        stack.gateway_url, "minji", tmp_path / "minji.stderr", ("--name", "minji", "--lang", "ko")
    )
    terminals += [hala, minji]
    await expect_said(hala, "ar", "cli.signin.signed_in", name="hala")
    await expect_said(minji, "ko", "cli.signin.signed_in", name="minji")
    for terminal, language in ((hala, "ar"), (minji, "ko")):
        option = said(language, "cli.menu.create_challenge")
        await expect_said(terminal, language, "cli.choose.option", number=4, option=option)
        await expect_said(terminal, language, "cli.choose.ask", last=8)
    for answer in ("4", "2"):  # create a challenge, Spectacular Bid
        await hala.send(answer)
    await expect_said(hala, "ar", "cli.choose.casual_for_guests")
    shown = re.escape(said("ar", "cli.wait.code", code="CODE")).replace("CODE", "(\\w+)")
    code = (await hala.expect(f"^{shown}$")).group(1)
    await minji.send("5")
    await expect_said(minji, "ko", "cli.menu.code")
    await minji.send(code)

    for terminal, language in ((hala, "ar"), (minji, "ko")):
        with speaking(language):
            waiting = t("cli.gate.waiting", gate=t("cli.gate.start"), who="WHO")
            gate = f"{pad(t('cli.label.gate'), LABEL_WIDTH)} {waiting.split('WHO')[0]}"
        await terminal.expect(f"^{re.escape(gate)}")
        await terminal.send("ready")
    # Both pressed once minji's board names whose move it is: before that, hala's ready may
    # not have reached the server, and a draw would be refused at the gate instead.
    with speaking("ko"):
        to_move = pad(t("cli.label.to_move"), LABEL_WIDTH)
    await minji.expect(f"^{re.escape(to_move)} ")
    await minji.send("dance")
    why = said("ko", "cli.input.not_a_command", text="dance")
    await expect_said(minji, "ko", "cli.match.not_understood", reason="unknown_command", why=why)
    await minji.send("draw")  # refused either way: the opener holds a tile to open with
    refused = [
        said("ko", "cli.match.refused", reason=reason, why=said("ko", f"reason.{reason}"))
        for reason in ("can_play", "not_your_decision")
    ]
    await minji.expect("^(" + "|".join(map(re.escape, refused)) + ")$")
    await minji.send("help")
    await expect_said(minji, "ko", "cli.help.bid_title")

    await hala.send("resign")
    await expect_said(minji, "ko", "cli.end.you_win_how", how=said("ko", "end.how.resign"))
    with speaking("ar"):
        winner = shown_name("minji", guest=True)
    await expect_said(
        hala, "ar", "cli.end.won_how", winner=winner, how=said("ar", "end.how.resign")
    )
    for terminal, language in ((hala, "ar"), (minji, "ko")):
        await expect_said(terminal, language, "cli.choose.ask", last=8)
        await terminal.send("8")
        assert await terminal.finish() == 0, terminal.text()
        assert terminal.transcript[-1] == said(language, "cli.bye")
    assert [line for line in hala.transcript + minji.transcript if "Traceback" in line] == []


async def test_a_rank_typed_after_a_ladder_shows_that_players_profile(stack: Stack) -> None:
    """Rated results published as the arbitration publishes them; the terminal's ladder,
    then rank 1's profile: ratings, results, the newest games, tournaments."""
    async with aiohttp.ClientSession() as http:
        ada = ArenaClient(http, stack.gateway_url)
        await ada.sign_up_new("Ada")
        connection = await nats.connect(stack.nats_url)
        try:
            js = connection.jetstream()
            for number in range(3):
                rival = Player(PlayerId(f"a_rival{number}"), f"Rival{number}")
                me = Player(PlayerId(ada.player_id), ada.name)
                result = Finished(MatchId(f"cli-{number}"), SPIT, (me, rival), 0, True, Mode.ONLINE)
                await publish(js, result)
        finally:
            await connection.close()
        # The results are counted one by one: wait for all three, not for the first.
        ladder = await poll_until(
            "Ada on the ladder with her three games counted",
            lambda: _ladder_with(ada, game_pb2.GAME_SPIT, games=3),
        )
        out = io.StringIO()
        console = Console(io.StringIO(f"{_rank_of(ladder, ada.player_id)}\n"), out)
        console.start()
        await show_from_ladder(ada, console, ladder)
    text = out.getvalue()
    assert f"{ada.name}: profile" in text and "Won 3 · lost 0 · void 0" in text
    recent = text.split("Recent games\n", 1)[1].splitlines()[:3]
    assert all(" · Spit against Rival" in line and line.endswith(": Won") for line in recent)


async def _ladder_with(
    client: ArenaClient, game: game_pb2.Game.ValueType, games: int = 1
) -> ratings_pb2.Ladder | None:
    """Return the ladder once it lists ``client`` with at least ``games`` games counted."""
    ladder = await client.ladder(game)
    listed = any(e.player_id == client.player_id and e.games >= games for e in ladder.entries)
    return ladder if listed else None


def _rank_of(ladder: ratings_pb2.Ladder, player_id: str) -> int:
    return next(e.rank for e in ladder.entries if e.player_id == player_id)
