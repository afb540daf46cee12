"""Accounts in Chromium: an account signed up on a desktop and signed in on a phone is one
player (name, id, rating, games); a guest who signs up stays the same player; signing out
everywhere reaches the other devices without a reload; refusals in words; two tabs refresh
one at a time and stay signed in; a passkey added signs in on two devices. Each new screen
is photographed and checked with axe on a desktop and a phone, and a phone never scrolls
sideways. Rated play is for accounts: a guest's rated boxes are disabled with a note, a rated
code it accepts is refused in words with a Sign up that keeps its player id, and signed up
it plays rated."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from playwright.async_api import CDPSession, Page

from clients.arena import ArenaClient, unique_username
from clients.grpcweb import CallError
from photofinish.game.v1 import game_pb2, spit_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2
from services.stack.stack import StackConfig, run_stack
from tests.pace import FAST_PLAY_ENV
from tests.web.axe import assert_accessible
from tests.web.browser import (
    PHONE,
    WAIT_MS,
    chromium,
    click_if_shown,
    last_update,
    new_page,
    resign,
    screenshot,
    sign_in,
)
from tests.web.conftest import THINK_SCALE, Arena
from tests.web.test_accessibility import small_targets
from tests.web.test_replay import adjacent, latest, spit, uncovering
from tests.web.test_spit import take_next_move

pytestmark = pytest.mark.asyncio(loop_scope="module")

# An account's access token lives this long here (10 minutes in play), so that a test sees
# the page refresh it several times.
ACCESS_TTL_S = 12
PASSWORD = "lantern-quiet-orchard"
ATTEMPTS = 100


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def arena(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Arena]:
    config = StackConfig(
        Path(tmp_path_factory.mktemp("stack")),
        with_bots=True,
        extra_env=(
            ("PF_BOTS_THINK_SCALE", THINK_SCALE),
            ("PF_ACCESS_TTL_S", str(ACCESS_TTL_S)),
            *FAST_PLAY_ENV,
        ),
    )
    async with run_stack(config) as stack, chromium() as browser:
        yield Arena(stack.gateway_url, browser, stack.ops_password)


async def sign_up(page: Page, username: str) -> None:
    await page.fill("#new-name", username)
    await page.fill("#new-password", PASSWORD)
    await page.click("#sign-up")
    await page.wait_for_selector(".lobby")


async def sign_in_account(page: Page, username: str, password: str = PASSWORD) -> None:
    await page.fill("#account-name", username)
    await page.fill("#account-password", password)
    await page.click("#account-sign-in")


async def me(page: Page) -> dict[str, Any]:
    """Who the page says is signed in: player id, name, guest or not, session."""
    who: dict[str, Any] | None = await page.evaluate("() => window.__pf.me()")
    assert who is not None, "nobody is signed in"
    return who


async def checked(page: Page, name: str) -> None:
    """Photograph the screen and run axe on it; on a phone, no sideways scroll and every
    control a 44 px target."""
    await screenshot(page, name)
    await assert_accessible(page)
    wide = await page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{name}: {wide} px of sideways scroll"
    if page.viewport_size == PHONE:
        assert await small_targets(page) == [], name


async def ladder_row(page: Page) -> str:
    """The Spit ladder's row of the page's own player, once the ladder shows it."""
    row = page.locator("table.ladder[data-game='1'] tr.me")
    await row.wait_for()
    return await row.inner_text()


async def my_games(page: Page) -> list[list[str]]:
    """My games as the page holds them (a phone hides a column): each row's match id and
    cells; then back to the lobby."""
    await page.click("#my-games")
    await page.locator("table.games-list tbody tr").first.wait_for()
    games: list[list[str]] = await page.evaluate(
        """() => [...document.querySelectorAll('table.games-list tbody tr')].map(row =>
            [row.dataset.match, ...[...row.cells].map(cell => cell.textContent)])"""
    )
    await page.click("#games-back")
    await page.wait_for_selector(".lobby")
    return games


async def ben_plays_a_card(ben: ArenaClient, match_id: str, seat: int, ann: Page) -> None:
    """Ben plays one card, Ann's page pressing Ready (and Spit, and playing) as needed: then
    his resignation is a loss, not an abort (docs/ratings.md)."""
    for _ in range(ATTEMPTS):
        await click_if_shown(ann, "#ready")
        await click_if_shown(ann, "#spit")
        view = await latest(ben, match_id, seat)
        command: spit_pb2.SpitCommand | None = None
        if seat in view.must_press:
            command = spit_pb2.SpitCommand(ready=spit_pb2.SpitReady())
        elif view.gate == game_pb2.GATE_SPIT:
            command = spit_pb2.SpitCommand(spit=spit_pb2.SpitSpit(number=view.spits + 1))
        elif view.gate == game_pb2.GATE_NONE:
            stock = view.sides[seat].stock
            for index, s in enumerate(stock):
                for pile, c in enumerate(view.centre):
                    if s.HasField("top") and c.HasField("top") and adjacent(s.top.rank, c.top.rank):
                        play = spit_pb2.SpitPlay(stock=index, pile=pile, onto=c.top.rank)
                        with contextlib.suppress(CallError):
                            await ben.submit(match_id, seat, spit(play=play))
                            return
            # No card fits: a move into an empty space, uncovering a card, is a move too
            # (and while Ben can make one, nobody is blocked and no spit comes).
            if (move := uncovering(view, seat)) is not None:
                with contextlib.suppress(CallError):
                    await ben.submit(match_id, seat, spit(move=move))
                    return
            await take_next_move(ann)  # nobody is stuck while she can: no spit comes
        if command is not None:
            with contextlib.suppress(CallError):
                await ben.submit(match_id, seat, game_pb2.Command(spit=command))
        await asyncio.sleep(0.3)
    pytest.fail("Ben found no card to play")


async def test_an_account_signed_up_here_and_in_on_a_phone_is_one_player(arena: Arena) -> None:
    desk = await new_page(arena.browser, arena.url)
    await checked(desk, "accounts-sign-in-desktop")
    await sign_up(desk, "Ann_Lantern")
    assert await desk.inner_text("#me") == "Ann_Lantern"
    # A rated Spit match from the page, that Ben (an account, through the API) resigns after
    # a play.
    await desk.click("#spit-challenge")
    code = await desk.inner_text("#challenge-code")
    async with aiohttp.ClientSession() as session:
        ben = ArenaClient(session, arena.url)
        await ben.sign_up_new("Ben_Lantern")
        assignment = await ben.accept_challenge(code)
        await desk.wait_for_selector(".spit-table")
        await ben_plays_a_card(ben, assignment.match_id, assignment.seats[0], desk)
        await ben.submit(
            assignment.match_id, assignment.seats[0], spit(resign=spit_pb2.SpitResign())
        )
    await desk.locator(".end-panel .rating-change", has_text="Rating: ").wait_for()
    await desk.click("#leave")

    phone = await new_page(arena.browser, arena.url, phone=True)
    await checked(phone, "accounts-sign-in-phone")
    await sign_in_account(phone, "ann_lantern")  # a name is found whatever its case
    await phone.wait_for_selector(".lobby")
    await checked(phone, "accounts-lobby-account-phone")
    await checked(desk, "accounts-lobby-account-desktop")
    assert await phone.inner_text("#me") == "Ann_Lantern"
    here, there = await me(desk), await me(phone)
    assert here["playerId"] == there["playerId"]
    assert here["sessionId"] != there["sessionId"]  # a session per device
    assert not here["guest"] and not there["guest"]
    assert await ladder_row(desk) == await ladder_row(phone)
    games = await my_games(desk)
    assert [row[0] for row in games] == [assignment.match_id]
    assert await my_games(phone) == games
    await desk.context.close()
    await phone.context.close()


async def test_a_guest_who_signs_up_keeps_its_player_id_and_its_games(arena: Arena) -> None:
    page = await new_page(arena.browser, arena.url)
    await sign_in(page, "Dee")
    guest = await me(page)
    assert guest["guest"]
    assert await page.inner_text("#me") == "Dee (guest)"
    await page.select_option("#spit-level", "1")
    await page.click("#spit-computer")
    await page.wait_for_selector(".spit-table")
    await resign(page)
    await page.click(".end-panel #leave")
    games = await my_games(page)
    await checked(page, "accounts-lobby-guest-desktop")
    await page.click("#keep-games")
    await checked(page, "accounts-keep-games-desktop")
    await page.set_viewport_size(PHONE)
    await checked(page, "accounts-keep-games-phone")
    await page.click("#keep-back")
    await checked(page, "accounts-lobby-guest-phone")
    await page.click("#keep-games")
    await sign_up(page, "Dee_Keeps")
    account = await me(page)
    assert account["playerId"] == guest["playerId"]
    assert not account["guest"]
    assert await page.inner_text("#me") == "Dee_Keeps"
    assert await my_games(page) == games
    await checked(page, "accounts-lobby-after-keeping-phone")
    await page.context.close()


async def test_wrong_passwords_taken_names_and_too_many_attempts_are_said_plainly(
    arena: Arena,
) -> None:
    owner = await new_page(arena.browser, arena.url)
    await sign_up(owner, "Eve_Taken")
    await owner.context.close()
    for phone in (False, True):
        label = "phone" if phone else "desktop"
        page = await new_page(arena.browser, arena.url, phone=phone)
        await sign_in_account(page, "Eve_Taken", "not-her-password")
        await page.locator("#account-error", has_text="Wrong username or password.").wait_for()
        await page.fill("#new-name", "EVE_taken")  # the same name to the server
        await page.fill("#new-password", PASSWORD)
        await page.click("#sign-up")
        await page.locator("#new-error", has_text="That username is taken").wait_for()
        await checked(page, f"accounts-refusals-{label}")
        await page.context.close()
    page = await new_page(arena.browser, arena.url)
    for field, value, said in (
        ("#new-name", "Eve Spaced", "no spaces, symbols or emoji"),
        ("#new-name", "Ev", "3 to 20 characters"),
    ):
        await page.fill(field, value)
        await page.fill("#new-password", PASSWORD)
        await page.click("#sign-up")
        await page.locator("#new-error", has_text=said).wait_for()
    # Failures of one name from one address slow the guesser: the page says how long.
    for _ in range(ATTEMPTS):
        await sign_in_account(page, "Eve_Taken", "still-not-her-password")
        error = page.locator("#account-error")
        await page.wait_for_function("() => !document.querySelector('#account-sign-in').disabled")
        if "Too many failed sign-ins: wait" in await error.inner_text():
            break
    else:
        pytest.fail("never slowed down")
    assert " second" in await error.inner_text()
    await page.context.close()


async def test_signing_out_everywhere_reaches_the_other_devices_without_a_reload(
    arena: Arena,
) -> None:
    """The desktop signs out a device from its list (in the lobby, it finds out at its next
    call), then every device (the phone, in a match, at once from its play socket)."""
    desk = await new_page(arena.browser, arena.url)
    await sign_up(desk, "Cara_Devices")
    phone = await new_page(arena.browser, arena.url, phone=True)
    third = await new_page(arena.browser, arena.url)
    for page in (phone, third):
        await sign_in_account(page, "Cara_Devices")
        await page.wait_for_selector(".lobby")
        await page.evaluate("() => { window.__noReload = true; }")
    await desk.click("#devices")
    rows = desk.locator("#device-list li")
    await rows.nth(2).wait_for()
    assert await rows.count() == 3
    assert await desk.locator("#device-list li.this").count() == 1
    assert "This device" in await desk.inner_text("#device-list li.this")
    await checked(desk, "accounts-devices-desktop")
    await phone.click("#devices")
    await phone.locator("#device-list li").nth(2).wait_for()
    await checked(phone, "accounts-devices-phone")
    await phone.click("#devices-back")
    # The phone plays: the server closes its play socket when the session ends.
    await phone.select_option("#spit-level", "1")
    await phone.click("#spit-computer")
    await phone.wait_for_selector(".spit-table")

    # One device signed out from another: it finds out by itself, the rest stay.
    gone = (await me(third))["sessionId"]
    await desk.click(f"#device-list li[data-session='{gone}'] .sign-out-one")
    await desk.wait_for_function("() => document.querySelectorAll('#device-list li').length === 2")
    notice = third.locator("#signed-out")
    await notice.wait_for()  # its lobby asks the server every 5 s: no reload needed
    assert "signed out from another device" in await notice.inner_text()
    assert await third.evaluate("() => window.__noReload === true")

    await desk.click("#sign-out-everywhere")
    await desk.locator("#signed-out", has_text="You signed out on every device.").wait_for()
    # A page in a match hears it from its play socket (closed with session_ended: the
    # socket's part is tests/e2e/test_accounts.py's); a hang guard, not a time measured.
    await phone.locator("#signed-out").wait_for()
    assert await phone.evaluate("() => window.__noReload === true")
    assert await phone.evaluate("() => localStorage.getItem('pf.session')") is None
    await checked(phone, "accounts-signed-out-phone")
    await checked(third, "accounts-signed-out-desktop")
    for page in (desk, phone, third):
        await page.context.close()


async def test_two_tabs_refresh_one_at_a_time_and_stay_signed_in(arena: Arena) -> None:
    first = await new_page(arena.browser, arena.url)
    await sign_up(first, "Finn_Tabs")
    second = await first.context.new_page()
    await second.goto(arena.url)
    await second.wait_for_selector(".lobby")
    tabs = (first, second)
    # Both at once, a few times: the lock makes the second wait, and it finds the first's.
    for _ in range(4):
        done = await asyncio.gather(*(tab.evaluate("() => window.__pf.refresh()") for tab in tabs))
        assert done == [True, True], [
            await tab.evaluate("() => window.__pf.refreshes()") for tab in tabs
        ]
    # And as their access tokens run out (at 80% of their life), well past several lives.
    await asyncio.sleep(ACCESS_TTL_S * 2.5)
    outcomes = [
        r["outcome"] for tab in tabs for r in await tab.evaluate("() => window.__pf.refreshes()")
    ]
    assert outcomes.count("refreshed") >= 6, outcomes
    assert set(outcomes) <= {"refreshed", "taken from another tab"}, outcomes
    for tab in tabs:
        assert await tab.locator("#signed-out").count() == 0
        assert await tab.inner_text("#me") == "Finn_Tabs"
    # Still one session, and it answers: the devices list of either tab shows it.
    await second.click("#devices")
    await second.locator("#device-list li.this").wait_for()
    assert await second.locator("#device-list li").count() == 1
    await first.context.close()


async def virtual_authenticator(page: Page) -> tuple[CDPSession, str]:
    """A platform authenticator in the page's browser context (Chromium's, through the
    DevTools protocol): it holds passkeys and unlocks as a fingerprint would, at once."""
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("WebAuthn.enable")
    added = await cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp, added["authenticatorId"]


async def test_a_passkey_added_on_the_desktop_signs_in_there_and_on_a_phone(
    arena: Arena,
) -> None:
    """At http://localhost (WebAuthn needs a name): add a passkey on the Devices screen,
    sign out, sign in with it, no name or password; the phone, holding the same passkey
    (synced, as passkeys are), is the same player. At 127.0.0.1 the page says where
    passkeys work."""
    url = arena.url.replace("127.0.0.1", "localhost")
    desk = await new_page(arena.browser, url)
    cdp, authenticator = await virtual_authenticator(desk)
    await sign_up(desk, "Pia_Passkey")
    await desk.click("#devices")
    await desk.locator("#passkey-list li.none").wait_for()
    await desk.click("#add-passkey")
    await desk.locator("#passkeys-status", has_text="Passkey added").wait_for()
    # Said once listed: the list holds it now, the one passkey of the account.
    assert await desk.locator("#passkey-list li.passkey[data-credential]").count() == 1
    assert "not used yet" in await desk.inner_text("#passkey-list li.passkey")
    await checked(desk, "accounts-passkeys-desktop")
    player = await me(desk)

    await desk.click("#devices-back")
    await desk.click("#sign-out")
    await desk.click("#passkey-sign-in")
    await desk.wait_for_selector(".lobby")
    again = await me(desk)
    assert (again["playerId"], again["name"]) == (player["playerId"], "Pia_Passkey")
    assert again["sessionId"] != player["sessionId"] and not again["guest"]

    # The passkey as the desktop's authenticator holds it now, counter included.
    held = (await cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator}))[
        "credentials"
    ]
    assert [c["isResidentCredential"] for c in held] == [True]
    phone = await new_page(arena.browser, url, phone=True)
    phone_cdp, phone_authenticator = await virtual_authenticator(phone)
    await phone_cdp.send(
        "WebAuthn.addCredential", {"authenticatorId": phone_authenticator, "credential": held[0]}
    )
    await phone.click("#passkey-sign-in")
    await phone.wait_for_selector(".lobby")
    assert (await me(phone))["playerId"] == player["playerId"]
    await phone.click("#devices")
    await phone.locator("#passkey-list li.passkey", has_text="last used").wait_for()
    await checked(phone, "accounts-passkeys-phone")

    by_address = await new_page(arena.browser, arena.url)  # 127.0.0.1: no name, no passkey
    await virtual_authenticator(by_address)
    await by_address.click("#passkey-sign-in")
    error = by_address.locator("#passkey-error", has_text="localhost")
    await error.wait_for()
    await checked(by_address, "accounts-passkey-by-address")
    for page in (desk, phone, by_address):
        await page.context.close()


async def queued(client: ArenaClient) -> matchmaking_pb2.MatchAssignment:
    """``client`` queues for rated Spit; return the match it is paired into."""
    async for update in client.queue(game_pb2.GAME_SPIT, rated=True):
        if update.HasField("match"):
            return update.match
    raise AssertionError("the queue ended with no match")


async def plays_rated(page: Page, opponents: matchmaking_pb2.MatchAssignment) -> None:
    """The page is in the rated Spit match the opponent was given too; it resigns, and the
    end shows."""
    await page.wait_for_selector(".spit-table")
    update = await last_update(page)
    assert update is not None and update.get("rated") is True
    assert update["matchId"] == opponents.match_id
    await resign(page)
    await page.wait_for_selector(".end-panel")


async def test_a_guest_signs_up_from_a_rated_refusal_and_then_plays_rated(arena: Arena) -> None:
    """Rated play is for accounts: a guest's rated boxes (each game's, the tournament
    form's) are unticked and disabled, with a note and Sign up; a rated challenge's code it
    accepts is refused in words, with Sign up, which keeps its player id; signed up, it
    accepts that code (on the desktop) or queues rated (on the phone), and plays rated."""
    async with aiohttp.ClientSession() as http:
        cy = ArenaClient(http, arena.url)
        await cy.sign_up_new("Cy_Rated")
        for phone in (False, True):
            label = "phone" if phone else "desktop"
            page = await new_page(arena.browser, arena.url, phone=phone)
            await sign_in(page, f"Gus {label}")
            guest = await me(page)
            await page.click(".create-tournament summary")
            for box in ("spit", "bid", "tournament"):
                assert not await page.is_checked(f"#{box}-rated")
                assert await page.is_disabled(f"#{box}-rated")
                note = page.locator(f"#{box}-rated-note")
                assert "Rated games are for accounts." in await note.inner_text()
                assert await note.locator(f"#{box}-rated-sign-up").inner_text() == "Sign up"
            await checked(page, f"accounts-rated-guest-lobby-{label}")

            # A rated code accepted as a guest: refused in words, the challenge left open.
            challenge = cy.create_challenge(game_pb2.GAME_SPIT, rated=True)
            code = (await anext(challenge)).code
            await page.fill("#spit-code", code)
            await page.click("#spit-accept")
            status = page.locator(".lobby-status")
            await status.filter(has_text="That challenge is rated").wait_for()
            said = await status.inner_text()
            assert "rated games are for accounts: sign up (you keep your games)" in said
            assert "account_needed" not in said
            await checked(page, f"accounts-rated-refused-{label}")
            await status.locator("#status-sign-up").click()
            await page.wait_for_selector(".keep-games")
            await sign_up(page, unique_username("Gus"))
            account = await me(page)
            assert account["playerId"] == guest["playerId"] and not account["guest"]
            for box in ("spit", "bid"):
                assert await page.is_checked(f"#{box}-rated")
                assert await page.is_enabled(f"#{box}-rated")
            assert await page.locator(".rated-note").count() == 0
            await checked(page, f"accounts-rated-account-lobby-{label}")

            if not phone:  # the same code, accepted now
                await page.fill("#spit-code", code)
                await page.click("#spit-accept")
                cys = (await asyncio.wait_for(anext(challenge), WAIT_MS / 1000)).match
                await challenge.aclose()
            else:  # the challenge withdrawn; both queue rated
                await challenge.aclose()
                waiting = asyncio.create_task(queued(cy))
                await page.click("#spit-queue")
                cys = await asyncio.wait_for(waiting, WAIT_MS / 1000)
            await plays_rated(page, cys)
            await page.context.close()


async def test_my_games_download_with_their_logs_then_the_account_is_deleted(
    arena: Arena,
) -> None:
    """My games downloads every finished game with its whole log, as GetMatchLog gives it;
    deleting the account asks the password again, signs every device out and refuses the
    name from then on."""
    page = await new_page(arena.browser, arena.url)
    await sign_up(page, "Dora_Leaves")
    player = await me(page)
    played = []
    for level in ("1", "2"):
        await page.select_option("#spit-level", level)
        await page.click("#spit-computer")
        await page.wait_for_selector(".spit-table")
        await page.wait_for_function("() => window.__pf.last()?.update")
        update = await last_update(page)
        assert update is not None
        played.append(update["matchId"])
        await resign(page)
        await page.click(".end-panel #leave")
    phone = await new_page(arena.browser, arena.url, phone=True)
    await sign_in_account(phone, "Dora_Leaves")
    await phone.wait_for_selector(".lobby")
    await phone.evaluate("() => { window.__noReload = true; }")

    await page.click("#my-games")
    await page.locator("table.games-list tbody tr").first.wait_for()
    async with page.expect_download() as downloading:
        await page.click("#download-games")
    download = await downloading.value
    saved = json.loads(Path(await download.path()).read_text())
    assert saved["format"] == "photofinish.my-games.v1"
    assert (saved["playerId"], saved["name"]) == (player["playerId"], "Dora_Leaves")
    assert sorted(m["matchId"] for m in saved["matches"]) == sorted(played)
    for match in saved["matches"]:
        log = match["log"]
        assert log["matchId"] == match["matchId"]
        opened = log["entries"][0]["created"]  # the header: the match as opened
        assert player["playerId"] in {p["playerId"] for p in opened["players"]}
        assert len(log["entries"]) > 1, "no command or end in the log"
    await page.locator("#download-status", has_text="Saved 2 games").wait_for()
    await checked(page, "accounts-download-desktop")
    await page.set_viewport_size(PHONE)
    await checked(page, "accounts-download-phone")

    await page.click("#games-back")
    await page.click("#devices")
    await page.click("details.delete-account summary")
    await page.fill("#delete-password", "not the password")
    await page.click("#delete-account")
    await page.locator("#delete-error", has_text="not this account's password").wait_for()
    await checked(page, "accounts-delete-phone")
    await page.fill("#delete-password", PASSWORD)
    await page.click("#delete-account")
    await page.locator("#signed-out", has_text="Your account is deleted").wait_for()
    await phone.locator("#signed-out").wait_for()  # the other device, with no reload
    assert await phone.evaluate("() => window.__noReload === true")
    await sign_in_account(page, "Dora_Leaves")
    await page.locator("#account-error", has_text="Wrong username or password").wait_for()
    await page.context.close()
    await phone.context.close()
