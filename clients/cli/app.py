"""The client's life: connect, sign in as a guest, then the menu until the person quits."""

from __future__ import annotations

import aiohttp

from clients.arena import ArenaClient, CallError
from clients.cli.console import INTERRUPT, Console
from clients.cli.menu import run_menu


async def sign_in(client: ArenaClient, console: Console, name: str | None) -> bool:
    """Sign in as a guest, asking for a display name until the server takes one."""
    while True:
        if not name:
            name = await console.ask("Your display name:")
            if name is None or name == INTERRUPT:
                return False
            if not name:
                continue
        try:
            await client.sign_in(name)
        except CallError as error:
            console.say(f"that name will not do ({error.reason or error.code}): {error.message}")
            name = None
            continue
        console.say(f"Signed in as {client.name}.")
        return True


async def run(url: str, name: str | None, console: Console) -> int:
    """Return the exit status after a session against the gateway at ``url``."""
    console.start()
    async with aiohttp.ClientSession() as session:
        client = ArenaClient(session, url)
        try:
            if not await sign_in(client, console, name):
                return 0
        except aiohttp.ClientError as error:
            console.say(f"cannot reach {url}: {error}")
            return 1
        await run_menu(client, console)
    console.say("Bye.")
    return 0
