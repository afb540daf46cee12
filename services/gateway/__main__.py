"""Run the gateway: `python -m services.gateway`."""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import nats
import nats.aio.client
import nats.errors
import nats.js.errors
from aiohttp import web

from runtime import logs, loops
from runtime.stopping import wait_for_stop_signal
from services.common import callers, natsmetrics
from services.common.live import live_bucket, watchers_bucket
from services.common.metrics import bound_port, metrics_server
from services.common.natslink.link import NatsLink
from services.common.placement import Directory
from services.common.serving import announce_ready
from services.gateway.accounts import AccountDesk
from services.gateway.arbitration_channels import ArbitrationChannels, by_owner
from services.gateway.auth import TokenCheck, identity_hook
from services.gateway.config import Config
from services.gateway.connections import ConnectionCap
from services.gateway.followed_matches import FollowedMatches
from services.gateway.grpcweb import GrpcWebConfig, HeaderPolicy, setup
from services.gateway.headers import security_headers
from services.gateway.live_matches import LiveMatches
from services.gateway.ops import OPS_PAGE, add_ops_routes, failure_rate
from services.gateway.own_methods import OwnMethods
from services.gateway.passkeys import PasskeyDesk
from services.gateway.placeholder_page import PLACEHOLDER, placeholder
from services.gateway.play import PlayEndpoint
from services.gateway.presence import Presence
from services.gateway.ratelimit import CommandRate, sign_in_rate
from services.gateway.routing import ARENA, public_routes
from services.gateway.sessions import EndedSessions, OpenSessions
from services.gateway.spectator_counts import SpectatorCounts
from services.gateway.stream_limits import StreamLimits
from services.gateway.submits import SubmitForwarder
from services.gateway.tokens import issue_access
from services.gateway.webapp import set_cache_control

READY_CHECK_S = 2.0  # the readiness probe's own NATS lookup gives up after this


async def main(config: Config) -> None:
    nc = await natsmetrics.connect(config.nats_url, "gateway")
    directory = await Directory.open(nc.jetstream())
    await directory.start()
    link = await NatsLink.connect(config.nats_url, "gateway-link")  # submits and updates
    arbitration = ArbitrationChannels(config.arbitration_addr, directory, config.caller_token)
    rate = CommandRate(config.commands_per_s, config.commands_burst)
    submits = SubmitForwarder(link, directory, rate)
    submits.start()
    watchers = await watchers_bucket(nc.jetstream())
    spectators = SpectatorCounts(watchers)
    spectators.start()
    live = LiveMatches(await live_bucket(nc.jetstream()), watchers, directory)
    await live.start()
    presence = Presence(link, config.presence_every_s, spectators)
    presence.start()
    streams = StreamLimits(
        config.streams_per_player, config.streams_per_address, config.streams_unlimited
    )
    tokens = TokenCheck(config.token_keys)
    open_sessions = OpenSessions()
    ended = EndedSessions(nc, tokens.end_session, open_sessions, config.access_ttl_s)
    await ended.start()
    # The matches' updates, one subscription a match; the answers that come with them.
    followed = FollowedMatches(link, submits.settle)
    link.call_when_reconnected(followed.catch_up)  # what was published meanwhile is lost
    arena = OwnMethods(
        config.token_keys,
        followed,
        arbitration,
        submits,
        presence,
        streams,
        sign_in_rate(config.sign_ins_per_minute),
        open_sessions,
    )
    accounts = account_desk(config, ended, arena)
    passkeys = PasskeyDesk(accounts, config.passkey_origin)
    grpc_web = GrpcWebConfig(
        routes=public_routes(),
        local={
            **arena.methods(),
            **accounts.methods(),
            **passkeys.methods(),
            f"{ARENA}/ListLiveMatches": live.list_live_matches,
        },
        backends={
            "arbitration": config.arbitration_addr,
            "matchmaking": config.matchmaking_addr,
            "ratings": config.ratings_addr,
            "tournaments": config.tournaments_addr,
        },
        max_message_bytes=config.max_message_bytes,
        body_timeout_s=config.body_timeout_s,
        # Nothing a client sends is passed on: the gateway names the player itself.
        headers=HeaderPolicy(names=frozenset(), prefixes=()),
        resolvers={"arbitration": by_owner(directory)},
        # The queue, challenges, rematches and tournament watches count as Watch does.
        stream_slot=arena.stream_slot,
        caller_token=config.caller_token,
    )
    app = web.Application()
    app.on_response_prepare.append(security_headers([OPS_PAGE, PLACEHOLDER]))
    inject_delay_s = config.inject_forwarding_delay_ms / 1000
    setup(app, grpc_web, identity_hook(tokens, inject_delay_s))
    play = PlayEndpoint(
        tokens,
        followed,
        arbitration,
        submits,
        presence,
        config.max_message_bytes,
        inject_delay_s,
        streams,
        open_sessions,
    )
    app.router.add_get("/play", play.handle)
    app.on_shutdown.append(lambda _: play.close_all())
    # /metrics is served apart, on the metrics port (as every service's is), never here.
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readiness(nc, link, directory))
    failures = failure_rate(config.ops_failures_per_minute)
    add_ops_routes(app, config.metrics_targets, config.ops_password, failures)
    if not config.ops_password:
        logging.getLogger(__name__).warning(
            "no operator password (PF_OPS_PASSWORD or PF_OPS_PASSWORD_FILE): /ops is closed"
        )
    index = Path(config.static_dir, "index.html") if config.static_dir else None
    if index is not None and index.is_file():
        app.router.add_get("/", index_page(index))
        # aiohttp's static files answer a name the file system cannot hold with a 500.
        app.router.add_get(UNSERVABLE_NAME, not_found)
        app.router.add_static("/", config.static_dir, show_index=False)
        app.on_response_prepare.append(set_cache_control)
    else:
        app.router.add_get("/", placeholder)
    # An idle connection (headers that trickle in included) closes after idle_connection_s.
    # A handler is cancelled when its client's connection is lost: a server stream then
    # cancels its backend call at once, so a closed queue ticket or challenge is gone
    # before anything that arrives after the loss (grpcweb/disconnect.py).
    runner = web.AppRunner(
        app,
        access_log=None,
        keepalive_timeout=config.idle_connection_s,
        handler_cancellation=True,
    )
    await runner.setup()
    site = web.TCPSite(runner, config.host, config.http_port)
    await site.start()
    passkeys.origin = passkeys.origin or f"http://localhost:{bound_port(site)}"
    cap = ConnectionCap(runner, config.connections_per_address, config.streams_unlimited)
    cap.start()
    try:
        async with metrics_server(config.host, config.metrics_port) as metrics_port:
            announce_ready("gateway", http=bound_port(site), metrics=metrics_port)
            await wait_for_stop_signal()
    finally:
        cap.stop()
        await runner.cleanup()
        presence.stop()
        await spectators.stop()
        await live.stop()
        submits.stop()
        await link.close()
        await arbitration.close()
        await accounts.close()
        await directory.stop()
        await nc.drain()
        print("STOPPED gateway", file=sys.stderr, flush=True)


def account_desk(config: Config, ended: EndedSessions, arena: OwnMethods) -> AccountDesk:
    """The account methods, asking the accounts service at PF_ACCOUNTS_ADDR; without one,
    they answer UNAVAILABLE (a gateway run alone, by a test)."""

    def mint(player_id: str, name: str, session_id: str, operator: bool) -> tuple[str, int]:
        token, identity = issue_access(
            config.token_keys,
            player_id,
            name,
            session_id,
            int(time.time()),
            config.access_ttl_s,
            operator=operator,
        )
        return token, identity.expires_at

    channel = callers.channel(config.accounts_addr or "127.0.0.1:1", config.caller_token)
    return AccountDesk(
        channel,
        mint,
        ended.announce,
        arena.check_sign_in,
        offered=bool(config.accounts_addr),
    )


# No file of the client has a path this long or a name past the file systems' limit (255).
UNSERVABLE_NAME = r"/{name:.{1000,}|(?:.*/)?[^/]{256,}.*}"


async def not_found(request: web.Request) -> web.StreamResponse:
    raise web.HTTPNotFound()


def index_page(index: Path) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """Return a handler that serves the built browser client's page at `/`."""

    async def handler(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(index)

    return handler


async def healthz(request: web.Request) -> web.Response:
    """Answer the liveness probe: the gateway's process is up and serving HTTP."""
    return web.Response(text="ok\n")


def readiness(
    nc: nats.aio.client.Client, link: NatsLink, directory: Directory
) -> Callable[[web.Request], Awaitable[web.Response]]:
    """Return the readiness probe: 200 once both NATS connections are up and an arbitration
    instance has announced itself lately (their announcements age out); else 503, naming
    what is missing, so a load balancer sends players elsewhere meanwhile."""

    async def readyz(request: web.Request) -> web.Response:
        missing = []
        if not nc.is_connected or not link.is_connected:
            missing.append("NATS is not connected")
        else:
            try:
                instances = await asyncio.wait_for(directory.instances_kv.keys(), READY_CHECK_S)
            except (nats.errors.Error, nats.js.errors.Error, TimeoutError):
                instances = []
            if not instances:
                missing.append("no arbitration instance has announced itself")
        if missing:
            return web.Response(status=503, text="not ready: " + "; ".join(missing) + "\n")
        return web.Response(text="ready\n")

    return readyz


if __name__ == "__main__":
    logs.configure("gateway")
    loops.run(main(Config.from_env()))
