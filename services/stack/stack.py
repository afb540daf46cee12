"""Everything on one machine: nats-server, every service, the bot pool and the gateway.

``make run`` uses it with the project's ports; integration tests use it with free ports
(port 0) and a temporary data folder, so both run the very same processes.
"""

from __future__ import annotations

import contextlib
import secrets
import signal
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from services.common import callers
from services.stack import natsauth
from services.stack.held_ports import HeldPorts
from services.stack.natsd import NatsServer, start_nats
from services.stack.private import make_private, write_private
from services.stack.processes import Child, start_child

# The processes that stamp, carry and judge time (nats-server, the gateway, the
# arbitration, the rules it calls) take the CPU before anything else on the machine: on a
# machine shared with other work (browsers, builds, a CI's neighbours) a starved loop is a
# timing fault, and a rated match exposed to one is voided (docs/timing-faults.md).
CLOCK_NICENESS = -5
CLOCK_SERVICES = frozenset({"rules", "arbitration", "gateway"})
BOTS_NICENESS = 5
# Password hashing (argon2id, 19 MiB and two passes each) is off the hot path: on one
# machine it must never hold back the services that keep the clock. A burst of sign-ups
# beside live matches lagged the arbitration's loop past its tolerance at niceness 0.
ACCOUNTS_NICENESS = 10


@dataclass(frozen=True, slots=True)
class Ports:
    """Where each process listens; 0 lets the kernel choose (tests)."""

    nats: int = -1
    rules: int = 0
    arbitration: int = 0
    matchmaking: int = 0
    ratings: int = 0
    tournaments: int = 0
    accounts: int = 0
    gateway: int = 0
    metrics_base: int = 0  # 0: free ports; else metrics of the n-th service at base + n

    def metrics(self, index: int) -> int:
        return 0 if self.metrics_base == 0 else self.metrics_base + index


@dataclass(frozen=True, slots=True)
class StackConfig:
    data_dir: Path
    ports: Ports = Ports()
    nats_url: str = ""  # empty: start our own nats-server, each service with its own user
    database_url: str = ""  # empty: SQLite under data_dir
    token_key: str = field(default_factory=lambda: secrets.token_hex(32))
    # The operator's password for /ops, new each start (empty: none, /ops is closed).
    ops_password: str = field(default_factory=lambda: secrets.token_urlsafe(24), repr=False)
    with_bots: bool = True
    arbitration_instances: int = 1  # more: "arbitration-2", … share the load and fail over
    extra_env: tuple[tuple[str, str], ...] = ()
    echo: bool = False
    # More /metrics for the ops page, as (name, host:port): the supervisor's, under make run.
    extra_metrics_targets: tuple[tuple[str, str], ...] = ()


@dataclass(slots=True)
class Stack:
    """The running stack: the children by name and the URLs to reach it."""

    nats_url: str  # as the operator (every subject), for tools and tests
    children: dict[str, Child]
    gateway_url: str = ""
    # Each NATS user's URL, credentials included (empty: a nats-server given, as it is).
    nats_urls: dict[str, str] = field(default_factory=dict)
    ops_password: str = field(default="", repr=False)  # user "operator" at /ops
    # The ports of each stopped process, held until it listens again (held_ports.py).
    held: dict[str, HeldPorts] = field(default_factory=dict, repr=False)

    def nats_url_of(self, user: str) -> str:
        """Return the NATS URL with ``user``'s credentials (natsauth.USERS)."""
        return self.nats_urls.get(user, self.nats_url)

    log_dir: Path = Path("var/logs")

    def address(self, name: str, port: str = "grpc") -> str:
        return self.children[name].address(port)

    async def restart(self, name: str, sig: signal.Signals = signal.SIGTERM) -> Child:
        """Stop one process with ``sig`` and start it again on the same ports."""
        await self.stop(name, sig)
        return await self.start_again(name)

    async def stop(self, name: str, sig: signal.Signals = signal.SIGTERM) -> int:
        """Stop one process with ``sig`` (SIGKILL: no clean-up at all); return its exit code.

        Its ports stay held for ``start_again``.
        """
        code = await self.children[name].stop(sig)
        self.hold_ports(name)
        return code

    def hold_ports(self, name: str) -> None:
        """Keep the ports of the exited process ``name`` for its next start."""
        if name not in self.held:
            self.held[name] = HeldPorts(self.children[name].ports.values())

    async def start_again(self, name: str) -> Child:
        """Start a stopped process again with the environment and ports it had."""
        old = self.children[name]
        env = dict(old.env)
        for key, port in old.ports.items():
            env_key = {"grpc": "PF_GRPC_PORT", "metrics": "PF_METRICS_PORT", "http": "PF_HTTP_PORT"}
            if key in env_key:
                env[env_key[key]] = str(port)
        self.hold_ports(name)  # a process that died by itself: held from now on
        try:
            self.children[name] = await start_child(
                name, old.module, env, self.log_dir, niceness=old.niceness
            )
        finally:  # listening again, or failed: the ports are its (or free) again
            self.held.pop(name).release()
        return self.children[name]


SERVICES = ("rules", "ratings", "arbitration", "matchmaking", "tournaments")
# Started after SERVICES, its metrics port after the gateway's (added later than both).
ACCOUNTS_METRICS_INDEX = len(SERVICES) + 1
OPS_PASSWORD_FILE = "ops.password"  # under the data folder: var/ops.password under make run


@contextlib.asynccontextmanager
async def run_stack(config: StackConfig) -> AsyncIterator[Stack]:
    """Start the whole stack in dependency order; stop it in reverse on exit."""
    nats: NatsServer | None = None
    make_private(config.data_dir)
    urls: dict[str, str] = {}
    if not config.nats_url:
        # Fresh passwords each start: the server has them in its environment, each
        # process its own in its NATS_URL, and no file holds them.
        passwords = natsauth.new_passwords()
        nats = await start_nats(
            config.data_dir / "nats",
            config.ports.nats,
            authorization=natsauth.authorization(),
            secrets={natsauth.password_variable(u): p for u, p in passwords.items()},
            niceness=CLOCK_NICENESS,
        )
        urls = {u: natsauth.with_user(nats.url, u, p) for u, p in passwords.items()}
    # The internal gRPC ports know their callers by token, new each start: the gateway
    # calls every service, matchmaking calls ratings, and the bot pool holds its stream to
    # matchmaking (services/common/callers.py, ACCEPTED).
    tokens = {name: callers.new_token() for name in callers.CALLERS}
    accepts = callers.accepted(tokens)
    logs = config.data_dir / "logs"
    stack = Stack(
        urls.get("operator", config.nats_url),
        {},
        log_dir=logs,
        nats_urls=urls,
        ops_password=config.ops_password,
    )
    base = {
        "PF_DATA_DIR": str(config.data_dir),
        "DATABASE_URL": config.database_url,
        "PF_TOKEN_KEY": config.token_key,
        **dict(config.extra_env),
    }
    try:
        for index, name in enumerate(SERVICES):
            env = {
                **base,
                "NATS_URL": stack.nats_url_of(name),
                "PF_GRPC_PORT": str(getattr(config.ports, name)),
                "PF_METRICS_PORT": str(config.ports.metrics(index)),
                # Matchmaking reads each queued player's rating (ratings starts before it).
                "PF_RATINGS_ADDR": stack.address("ratings") if "ratings" in stack.children else "",
                "PF_INSTANCE": name,  # arbitration's name in the placement records
                "PF_CALLERS": accepts[name],
                "PF_CALLER_TOKEN": tokens.get(name, ""),
            }
            niceness = CLOCK_NICENESS if name in CLOCK_SERVICES else 0
            stack.children[name] = await start_child(
                name, f"services.{name}", env, logs, config.echo, niceness
            )
        for number in range(2, config.arbitration_instances + 1):
            name = f"arbitration-{number}"
            env = {**stack.children["arbitration"].env, "PF_INSTANCE": name}
            env.update(PF_GRPC_PORT="0", PF_METRICS_PORT="0")
            stack.children[name] = await start_child(
                name, "services.arbitration", env, logs, config.echo, CLOCK_NICENESS
            )
        # The gateway alone calls it; on NATS it only tells of deleted accounts.
        stack.children["accounts"] = await start_child(
            "accounts",
            "services.accounts",
            {
                **base,
                "NATS_URL": stack.nats_url_of("accounts"),
                "PF_GRPC_PORT": str(config.ports.accounts),
                "PF_METRICS_PORT": str(config.ports.metrics(ACCOUNTS_METRICS_INDEX)),
                "PF_CALLERS": accepts["accounts"],
            },
            logs,
            config.echo,
            niceness=ACCOUNTS_NICENESS,
        )
        gateway_env = {
            **base,
            "NATS_URL": stack.nats_url_of("gateway"),
            "PF_CALLER_TOKEN": tokens["gateway"],
            "PF_HTTP_PORT": str(config.ports.gateway),
            "PF_METRICS_PORT": str(config.ports.metrics(len(SERVICES))),
            "PF_ARBITRATION_ADDR": stack.address("arbitration"),
            "PF_MATCHMAKING_ADDR": stack.address("matchmaking"),
            "PF_RATINGS_ADDR": stack.address("ratings"),
            "PF_TOURNAMENTS_ADDR": stack.address("tournaments"),
            "PF_ACCOUNTS_ADDR": stack.address("accounts"),
            # The ops page (/ops) reads every service's /metrics, each arbitration's too.
            "PF_METRICS_TARGETS": ",".join(
                [f"{name}={stack.address(name, 'metrics')}" for name in stack.children]
                + [f"{name}={address}" for name, address in config.extra_metrics_targets]
            ),
        }
        if config.ops_password:  # a file the operator reads it from, as the gateway does
            write_private(config.data_dir / OPS_PASSWORD_FILE, config.ops_password.encode())
            gateway_env["PF_OPS_PASSWORD_FILE"] = str(config.data_dir / OPS_PASSWORD_FILE)
        gateway = await start_child(
            "gateway", "services.gateway", gateway_env, logs, config.echo, CLOCK_NICENESS
        )
        stack.children["gateway"] = gateway
        stack.gateway_url = f"http://127.0.0.1:{gateway.ports['http']}"
        if config.with_bots:
            bots_env = {  # no NATS: a client of the gateway, asked for bots by matchmaking
                **base,
                "PF_GATEWAY_URL": stack.gateway_url,
                "PF_MATCHMAKING_ADDR": stack.address("matchmaking"),
                "PF_CALLER_TOKEN": tokens["bots"],
            }
            # The computer players are clients: on one machine they yield the CPU to the
            # services that keep the clock (a deployment runs them on their own pods).
            stack.children["bots"] = await start_child(
                "bots", "clients.bots", bots_env, logs, config.echo, niceness=BOTS_NICENESS
            )
        yield stack
    finally:
        for child in reversed(list(stack.children.values())):
            await child.stop()
        for held in stack.held.values():
            held.release()
        if nats is not None:
            await nats.stop()
