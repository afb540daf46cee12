"""The client's life: connect, sign in (an account, or a guest), then the menu until the
person quits."""

from __future__ import annotations

import aiohttp

from clients.arena import ArenaClient, CallError
from clients.cli.console import INTERRUPT, Console
from clients.cli.menu import run_menu
from clients.cli.reasons import code_of, explain
from clients.cli.saved import SavedSessions, default_path
from clients.cli.words import t

DEVICE = "the terminal client"


async def sign_in(client: ArenaClient, console: Console, name: str | None) -> bool:
    """Sign in as a guest, asking for a display name until the server takes one."""
    while True:
        if not name:
            name = await console.ask(t("cli.signin.display_name"))
            if name is None or name == INTERRUPT:
                return False
            if not name:
                continue
        try:
            await client.sign_in(name)
        except CallError as error:
            console.say(t("cli.signin.bad_name", reason=code_of(error), why=explain(error)))
            name = None
            continue
        console.say(t("cli.signin.signed_in", name=client.name))
        return True


async def sign_in_account(client: ArenaClient, console: Console, username: str) -> bool:
    """Sign in with ``username`` and a password asked for (not shown as it is typed)."""
    while True:
        password = await console.ask_secret(t("cli.signin.password", name=username))
        if password is None or password == INTERRUPT:
            return False
        try:
            await client.sign_in_account(username, password, DEVICE)
        except CallError as error:
            console.say(t("cli.signin.refused", reason=code_of(error), why=explain(error)))
            if error.reason == "too_many_attempts":
                return False
            continue
        console.say(t("cli.signin.signed_in", name=client.name))
        return True


async def resume(client: ArenaClient, console: Console, saved: SavedSessions, url: str) -> bool:
    """Carry on the session saved for ``url``, if there is one that still refreshes."""
    token = saved.refresh_token(url)
    if not token:
        return False
    try:
        await client.refresh_session(token)
    except CallError as error:
        saved.forget(url)
        console.say(t("cli.signin.saved_ended", reason=code_of(error)))
        return False
    console.say(t("cli.signin.resumed", name=client.name))
    return True


async def run(
    url: str,
    name: str | None,
    console: Console,
    username: str | None = None,
    saved: SavedSessions | None = None,
    guest: bool = False,
) -> int:
    """Return the exit status after a session against the gateway at ``url``.

    ``username``: sign in with that account. Otherwise a saved session is carried on (unless
    ``name`` or ``guest`` asks for a guest), else the person signs in as a guest.
    """
    console.start()
    saved = saved or SavedSessions(default_path())
    async with aiohttp.ClientSession() as session:
        client = ArenaClient(session, url)
        client.on_refresh = lambda s: saved.save(url, s.username, s.refresh_token)
        try:
            if username:
                signed_in = await sign_in_account(client, console, username)
            else:
                resumed = not (name or guest) and await resume(client, console, saved, url)
                signed_in = resumed or await sign_in(client, console, name)
            if not signed_in:
                return 0
        except aiohttp.ClientError as error:
            console.say(t("cli.unreachable_url", url=url, error=str(error)))
            return 1
        await run_menu(client, console)
    console.say(t("cli.bye"))
    return 0
