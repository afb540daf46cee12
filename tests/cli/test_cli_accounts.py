"""The CLI with an account against the real stack: the password read from the terminal,
the session saved for the next run (0600), carried on, and refused once signed out."""

from __future__ import annotations

import stat
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio

from clients.arena import ArenaClient
from clients.cli.saved import default_path
from services.stack.stack import Stack, StackConfig, run_stack
from tests.cli.terminal import Terminal

pytestmark = pytest.mark.asyncio(loop_scope="module")

MENU = r"^choose 1–8:"
PASSWORD = "correct horse battery"


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def stack(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stack]:
    data_dir: Path = tmp_path_factory.mktemp("stack")
    async with run_stack(StackConfig(data_dir, with_bots=False)) as running:
        yield running


async def start(stack: Stack, tmp_path: Path, *args: str) -> Terminal:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config")}
    return await Terminal.start(stack.gateway_url, "cli", tmp_path / "cli.stderr", args, env)


async def quit_client(terminal: Terminal) -> None:
    await terminal.expect(MENU)
    await terminal.send("8")
    assert await terminal.finish() == 0, terminal.text()


async def test_an_account_signs_in_is_saved_and_is_carried_on_next_time(
    stack: Stack, tmp_path: Path
) -> None:
    name = f"Cli{uuid.uuid4().hex[:6]}"
    async with aiohttp.ClientSession() as http:
        other = ArenaClient(http, stack.gateway_url)
        await other.sign_up(name, PASSWORD, "desktop")
        first = await start(stack, tmp_path, "--user", name)
        await first.expect(rf"^Password for {name}:")
        await first.send("not the password")
        await first.expect(r"^not signed in \(bad_credentials\)")
        await first.send(PASSWORD)
        await first.expect(rf"^Signed in as {name}\.$")
        await quit_client(first)
        assert PASSWORD not in first.text()
        saved = default_path({"XDG_CONFIG_HOME": str(tmp_path / "config")})
        assert stat.S_IMODE(saved.stat().st_mode) == 0o600
        assert PASSWORD not in saved.read_text()

        again = await start(stack, tmp_path)  # no --user, no --name: the saved session
        await again.expect(rf"^Signed in as {name} \(saved session")
        await quit_client(again)

        await other.sign_out(everywhere=True)
        ended = await start(stack, tmp_path)
        await ended.expect(r"^Your saved session ended \(session_ended\)")
        await ended.expect(r"^Your display name:")
        ended.kill()
