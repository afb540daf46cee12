"""NATS trusts nobody it has not been told of: an attack on the stack's own nats-server.

Without a user's password a client is refused at CONNECT. With one service's password,
everything that service does not do is refused: reading a seat's hand, forging a submit
or a result, reading the match log or the results, snooping another's answers, taking
the arbitration's or the rules' work. The expectations are written out here, not read
from the permission table they check.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from services.common.natsurl import credentials_of, servers_of
from services.stack.natsauth import USERS, operator_url, save_operator_url
from services.stack.stack import Stack, StackConfig, run_stack

pytestmark = pytest.mark.asyncio(loop_scope="module")

ALLOWED = ""

# What an intruder tries, and the only users (besides the operator) whose work it is.
ATTEMPTS: dict[tuple[str, str], set[str]] = {
    ("SUB", "pf.match.*.seats"): {"gateway"},  # every seat's hand
    ("SUB", "pf.match.m1.seats"): {"gateway"},
    ("SUB", "pf.match.*.public"): {"gateway"},
    ("PUB", "pf.arbitration.submit"): {"gateway"},  # a forged command (a resignation)
    ("PUB", "pf.arbitration.a1.submit"): {"gateway"},
    ("SUB", "pf.arbitration.submit"): {"arbitration"},  # taking the arbitration's work
    ("PUB", "pf.results.finished"): {"arbitration"},  # a forged rated result
    ("PUB", "pf.results.voided"): {"arbitration"},
    ("PUB", "pf.match.m1.seats"): {"arbitration"},  # a forged update
    ("PUB", "pf.log.m1"): {"arbitration"},  # a forged log entry
    # Reading a log: the arbitration, and ratings measuring a rated match (fair play).
    ("PUB", "$JS.API.STREAM.MSG.GET.PF_MATCH_LOG"): {"arbitration", "ratings"},
    ("PUB", "$JS.API.CONSUMER.CREATE.PF_MATCH_LOG"): {"arbitration", "ratings"},
    ("PUB", "$JS.API.STREAM.UPDATE.PF_MATCH_LOG"): {"arbitration"},  # its limits changed
    ("PUB", "$JS.API.CONSUMER.CREATE.PF_RESULTS.fairplay"): {"ratings"},
    ("PUB", "$JS.API.CONSUMER.CREATE.PF_RESULTS"): set(),  # reading every result
    ("PUB", "$JS.API.CONSUMER.CREATE.PF_RESULTS.ratings"): {"ratings"},
    ("PUB", "$JS.API.STREAM.DELETE.PF_RESULTS"): set(),
    ("PUB", "$JS.API.STREAM.PURGE.PF_MATCH_LOG"): set(),
    ("PUB", "$KV.pf_owners.m1"): {"arbitration"},  # moving a match to another owner
    ("PUB", "$KV.pf_watchers.m1"): {"gateway"},
    ("PUB", "$KV.pf_live.m1"): {"arbitration"},  # matchmaking reads the live list alone
    ("PUB", "pf.match.create"): {"matchmaking", "tournaments"},
    ("PUB", "pf.accounts.deleted"): {"accounts"},  # a forged deletion (a name blanked)
    ("PUB", "$JS.API.CONSUMER.CREATE.PF_ACCOUNTS.ratings"): {"ratings"},
    ("PUB", "$JS.API.CONSUMER.CREATE.PF_ACCOUNTS"): set(),
    ("PUB", "$JS.API.STREAM.PURGE.PF_ACCOUNTS"): set(),
    ("SUB", "pf.match.create"): {"arbitration"},
    ("PUB", "pf.bots.request"): set(),  # the bot pool has no NATS (BotPools.Serve)
    ("SUB", "pf.match.*.opened"): set(),
    ("SUB", "pf.rules.calls"): {"rules"},
    ("PUB", "pf.rules.calls"): {"arbitration"},
    ("PUB", "pf.cmd.r1.m1"): {"arbitration"},  # a forged command, stored to be judged
    ("PUB", "pf.judge.r1.m1"): set(),  # a command fed to the rules that the log never stored
    ("SUB", "pf.judge.>"): {"rules"},  # every stored command, as the log feeds it
    ("SUB", "_INBOX.>"): set(),  # every answer to every request
    ("SUB", "_INBOX_gateway.>"): {"gateway"},
    ("SUB", "_INBOX_arbitration.x"): {"arbitration"},
    ("PUB", "_INBOX_gateway.x"): {"arbitration"},  # a forged answer to a submit
    ("PUB", "_INBOX_arbitration.x"): {"rules"},
    ("SUB", ">"): set(),
}
SERVICES = sorted(set(USERS) - {"operator"})


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def stack(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stack]:
    config = StackConfig(Path(tmp_path_factory.mktemp("stack")), with_bots=True)
    async with run_stack(config) as running:
        yield running


async def attempt(
    url: str, tries: list[tuple[str, str]], user: str = "", password: str = ""
) -> list[str]:
    """Return, for each (SUB or PUB, subject) tried after connecting as ``user``, the
    server's error ('' when allowed); one error for all when the connection is refused."""
    host, port = servers_of(url)[0]
    reader, writer = await asyncio.open_connection(host, port)
    try:
        await reader.readline()  # INFO
        hello: dict[str, object] = {"verbose": False, "pedantic": False, "protocol": 1}
        if user:
            hello.update(user=user, **{"pass": password})
        writer.write(f"CONNECT {json.dumps(hello)}\r\nPING\r\n".encode())
        refused = await _errors_until_pong(reader)
        if refused:
            return refused * len(tries)
        found = []
        for number, (verb, subject) in enumerate(tries, 1):
            line = f"SUB {subject} {number}" if verb == "SUB" else f"PUB {subject} 0\r\n"
            writer.write(f"{line}\r\nPING\r\n".encode())
            errors = await _errors_until_pong(reader)
            found.append(errors[0] if errors else ALLOWED)
        return found
    finally:
        writer.close()


async def _errors_until_pong(reader: asyncio.StreamReader) -> list[str]:
    errors: list[str] = []
    async with asyncio.timeout(10):
        while True:
            raw = await reader.readline()
            if not raw:  # the server closed the connection
                return errors or ["closed"]
            line = raw.decode().strip()
            if line == "PONG":
                return errors
            if line.startswith("-ERR"):
                errors.append(line)
            # Anything else (INFO, +OK, a MSG and its payload) is not an answer to a try.


async def test_a_client_without_a_password_or_with_a_wrong_one_is_refused(stack: Stack) -> None:
    tries = list(ATTEMPTS)
    for refusal in await attempt(stack.nats_url, tries):
        assert "Authorization Violation" in refusal
    _, gateway_password = credentials_of(stack.nats_url_of("gateway"))
    for refusal in await attempt(stack.nats_url, tries, "gateway", gateway_password + "x"):
        assert "Authorization Violation" in refusal
    for refusal in await attempt(stack.nats_url, tries, "nobody", gateway_password):
        assert "Authorization Violation" in refusal


@pytest.mark.parametrize("user", SERVICES)
async def test_each_service_may_do_its_own_work_and_nothing_else(stack: Stack, user: str) -> None:
    tries = list(ATTEMPTS)
    found = await attempt(stack.nats_url, tries, *credentials_of(stack.nats_url_of(user)))
    for (verb, subject), error in zip(tries, found, strict=True):
        if user in ATTEMPTS[(verb, subject)]:
            assert error == ALLOWED, (user, verb, subject, error)
        else:
            assert "Permissions Violation" in error, (user, verb, subject, error)


async def test_the_operator_may_do_everything(stack: Stack) -> None:
    tries = list(ATTEMPTS)
    assert await attempt(stack.nats_url, tries, *credentials_of(stack.nats_url)) == [ALLOWED] * len(
        tries
    )


async def test_no_log_holds_a_nats_password(stack: Stack) -> None:
    passwords = [credentials_of(url)[1] for url in stack.nats_urls.values()]
    assert all(passwords)
    for log in stack.log_dir.glob("*.log"):
        text = log.read_text(errors="replace")
        assert not [p for p in passwords if p in text], f"a NATS password in {log.name}"


async def test_the_operator_url_is_kept_for_its_owner_alone(tmp_path: Path) -> None:
    (tmp_path / "nats").mkdir()
    path = save_operator_url(tmp_path, "nats://operator:pfsecret@127.0.0.1:7422")
    assert path.stat().st_mode & 0o777 == 0o600
    assert operator_url(tmp_path) == "nats://operator:pfsecret@127.0.0.1:7422"
    assert save_operator_url(tmp_path, "nats://operator:pfnew@127.0.0.1:7422") == path
    assert operator_url(tmp_path) == "nats://operator:pfnew@127.0.0.1:7422"  # replaced
    assert operator_url(tmp_path / "elsewhere") is None


async def test_the_bot_pool_has_no_nats_at_all(stack: Stack) -> None:
    assert "bots" not in USERS
    assert not {key for key in stack.children["bots"].env if key.startswith("NATS")}
