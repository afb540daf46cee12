"""The deploy test's stranger, tried on a nats-server with the deployments' users."""

from __future__ import annotations

from pathlib import Path

from services.common.natsurl import servers_of
from services.stack import natsauth
from services.stack.natsd import start_nats
from tools.deploy import natsconf
from tools.deploy.intruder import ALLOWED, Attempt, answer


async def test_the_server_says_who_is_refused_and_what_is_forbidden(tmp_path: Path) -> None:
    passwords = natsauth.new_passwords()
    server = await start_nats(
        tmp_path / "nats",
        authorization=natsconf.render(),  # the file the deployments' nodes read
        secrets={natsauth.password_variable(u): p for u, p in passwords.items()},
    )
    try:
        host, port = servers_of(server.url)[0]
        views = "SUB pf.match.*.seats"
        said = [
            await answer(host, port, attempt)
            for attempt in (
                Attempt("no credentials"),
                Attempt("a wrong password", "gateway", passwords["gateway"] + "x"),
                Attempt("matchmaking reads hands", "matchmaking", passwords["matchmaking"], views),
                Attempt("the gateway reads hands", "gateway", passwords["gateway"], views),
                Attempt("a forged result", "ratings", passwords["ratings"], "PUB pf.results.x"),
                Attempt("the operator connects", "operator", passwords["operator"]),
            )
        ]
    finally:
        await server.stop()
    assert "Authorization Violation" in said[0] and "Authorization Violation" in said[1]
    assert "Permissions Violation for Subscription" in said[2]
    assert said[3] == ALLOWED
    assert "Permissions Violation for Publish" in said[4]
    assert said[5] == ALLOWED
