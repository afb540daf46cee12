"""The gateway's settings, read once from the environment."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from services.common.settings import ConfigError
from services.gateway.ops.credential import FAILURES_PER_MINUTE, password_from
from services.gateway.ops.targets import MetricsTarget, parse_targets
from services.gateway.stream_limits import LOOPBACK
from services.gateway.tokens import ACCESS_TTL_S, LEGACY_KEY_ID, KeyRing

# `make web` builds the browser client here; the gateway serves it at / when it exists.
BUILT_WEB_CLIENT = Path(__file__).resolve().parents[2] / "clients" / "web" / "dist"


@dataclass(frozen=True, slots=True)
class Config:
    host: str
    http_port: int
    nats_url: str
    token_keys: KeyRing  # token_keys(): PF_TOKEN_KEYS(_FILE), else PF_TOKEN_KEY as key "0"
    arbitration_addr: str
    matchmaking_addr: str
    ratings_addr: str
    max_message_bytes: int
    static_dir: str  # the built web client; empty or not built: the placeholder page
    inject_forwarding_delay_ms: float  # fault injection for tests only: hold each request
    metrics_targets: tuple[MetricsTarget, ...] = ()  # the services the ops page reads
    metrics_port: int = 0  # this process's /metrics, apart from the public port
    ops_password: str = field(default="", repr=False)  # ops/credential.py; empty: closed
    ops_failures_per_minute: float = FAILURES_PER_MINUTE  # wrong passwords, per address
    tournaments_addr: str = ""
    accounts_addr: str = ""  # PF_ACCOUNTS_ADDR; empty: accounts are not offered
    # The page's origin, as players' browsers see it: passkeys are bound to its host.
    # Empty: http://localhost:<this gateway's port>.
    passkey_origin: str = ""
    access_ttl_s: int = ACCESS_TTL_S  # an account's access token (tests shorten it)
    caller_token: str = ""  # PF_CALLER_TOKEN: what the services know the gateway by
    presence_every_s: float = 5.0  # how often the seats with a stream open are named
    commands_per_s: float = 10.0  # each player's command rate (services/gateway/ratelimit.py)
    commands_burst: float = 20.0
    streams_per_player: int = 16  # open match streams (services/gateway/stream_limits.py)
    streams_per_address: int = 1024
    streams_unlimited: frozenset[str] = LOOPBACK
    sign_ins_per_minute: float = 30.0  # per client address (streams_unlimited: none)
    connections_per_address: int = 256  # services/gateway/connections.py
    idle_connection_s: float = 20.0
    body_timeout_s: float = 10.0  # a gRPC-web body, once its headers came

    @classmethod
    def from_env(cls) -> Config:
        env = os.environ
        return cls(
            host=env.get("PF_HOST", "127.0.0.1"),
            http_port=int(env.get("PF_HTTP_PORT", "0")),
            nats_url=env.get("NATS_URL", "nats://127.0.0.1:4222"),
            token_keys=token_keys(env),
            arbitration_addr=env["PF_ARBITRATION_ADDR"],
            matchmaking_addr=env["PF_MATCHMAKING_ADDR"],
            ratings_addr=env["PF_RATINGS_ADDR"],
            max_message_bytes=int(env.get("PF_MAX_MESSAGE_BYTES", str(64 * 1024))),
            static_dir=env.get("PF_STATIC_DIR", str(BUILT_WEB_CLIENT)),
            inject_forwarding_delay_ms=float(env.get("PF_INJECT_FORWARDING_DELAY_MS", "0")),
            metrics_targets=parse_targets(env.get("PF_METRICS_TARGETS", "")),
            metrics_port=int(env.get("PF_METRICS_PORT", "0")),
            ops_password=password_from(env),
            ops_failures_per_minute=float(
                env.get("PF_OPS_FAILURES_PER_MINUTE", str(FAILURES_PER_MINUTE))
            ),
            tournaments_addr=env.get("PF_TOURNAMENTS_ADDR", "127.0.0.1:7105"),
            accounts_addr=env.get("PF_ACCOUNTS_ADDR", ""),
            passkey_origin=env.get("PF_PASSKEY_ORIGIN", ""),
            access_ttl_s=int(env.get("PF_ACCESS_TTL_S", str(ACCESS_TTL_S))),
            caller_token=env.get("PF_CALLER_TOKEN", ""),
            presence_every_s=float(env.get("PF_PRESENCE_EVERY_S", "5")),
            commands_per_s=float(env.get("PF_COMMANDS_PER_S", "10")),
            commands_burst=float(env.get("PF_COMMANDS_BURST", "20")),
            streams_per_player=int(env.get("PF_STREAMS_PER_PLAYER", "16")),
            streams_per_address=int(env.get("PF_STREAMS_PER_ADDRESS", "1024")),
            sign_ins_per_minute=float(env.get("PF_SIGN_INS_PER_MINUTE", "30")),
            connections_per_address=int(env.get("PF_CONNECTIONS_PER_ADDRESS", "256")),
            idle_connection_s=float(env.get("PF_IDLE_CONNECTION_S", "20")),
            body_timeout_s=float(env.get("PF_BODY_TIMEOUT_S", "10")),
            streams_unlimited=frozenset(
                a.strip()
                for a in env.get("PF_STREAMS_UNLIMITED_ADDRESSES", ",".join(LOOPBACK)).split(",")
                if a.strip()
            ),
        )


def token_keys(env: Mapping[str, str]) -> KeyRing:
    """Return the ring that signs and checks tokens (services/gateway/tokens.py).

    ``PF_TOKEN_KEYS`` (or the file ``PF_TOKEN_KEYS_FILE`` names) is the whole ring,
    ``id:hexkey[,id:hexkey]``, when set; else ``PF_TOKEN_KEY`` is the one key, id ``"0"``;
    else a random key, so tokens die with the process (fine for a single machine).

    Raises:
        ConfigError: both PF_TOKEN_KEYS and PF_TOKEN_KEYS_FILE set, an unreadable or empty
            file, or a malformed ring.
    """
    path, given = env.get("PF_TOKEN_KEYS_FILE", ""), env.get("PF_TOKEN_KEYS", "")
    if path and given:
        raise ConfigError("set PF_TOKEN_KEYS or PF_TOKEN_KEYS_FILE, not both")
    try:
        text = Path(path).read_text().strip() if path else given.strip()
    except OSError as error:
        raise ConfigError(f"PF_TOKEN_KEYS_FILE={path!r}: {error.strerror}") from None
    if path and not text:
        raise ConfigError(f"PF_TOKEN_KEYS_FILE={path!r} is empty")
    if not text:
        key = env.get("PF_TOKEN_KEY") or secrets.token_hex(32)
        return KeyRing(((LEGACY_KEY_ID, key.encode()),))
    try:
        return KeyRing.parse(text, "PF_TOKEN_KEYS_FILE" if path else "PF_TOKEN_KEYS")
    except ValueError as error:
        raise ConfigError(str(error)) from None
