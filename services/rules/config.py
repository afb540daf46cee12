"""The rules service's settings, read once from the environment."""

from __future__ import annotations

import os
import re
import secrets
import socket
from dataclasses import dataclass

from games.decision import DEFAULT_LIFT_PAUSE_MS
from services.common import settings
from services.common.serving import Listen


@dataclass(frozen=True, slots=True)
class Config:
    listen: Listen
    nats_url: str  # the arbitration's batches of calls arrive over NATS
    lift_pause_ms: int  # the visible pause before the server takes a due action (Spit's spit)
    # Names this process on NATS: the matches it holds are called on its own subject. A
    # restarted process holds nothing, so the name is new every start unless PF_INSTANCE.
    instance: str

    @classmethod
    def from_env(cls) -> Config:
        """Return the settings from PF_HOST, PF_GRPC_PORT, PF_METRICS_PORT (0: any free),
        NATS_URL, PF_SPIT_PAUSE_MS and PF_INSTANCE.

        Raises:
            ConfigError: when a number is not one or out of range.
        """
        env = os.environ
        pause_ms = settings.number(env, "PF_SPIT_PAUSE_MS", DEFAULT_LIFT_PAUSE_MS, int, 0)
        return cls(
            listen=settings.listen(env),
            nats_url=env.get("NATS_URL", "nats://127.0.0.1:4222"),
            lift_pause_ms=pause_ms,
            instance=env.get("PF_INSTANCE", "") or fresh_instance_name(),
        )


def fresh_instance_name() -> str:
    """Return a name no other process has: the host's, made subject-safe, and a random tail."""
    host = re.sub(r"[^A-Za-z0-9_-]", "-", socket.gethostname())
    return f"{host}-{secrets.token_hex(4)}"
