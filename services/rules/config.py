"""The rules service's settings, read once from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass

from services.common import settings
from services.common.serving import Listen


@dataclass(frozen=True, slots=True)
class Config:
    listen: Listen

    @classmethod
    def from_env(cls) -> Config:
        """Return the settings from PF_HOST, PF_GRPC_PORT and PF_METRICS_PORT (0: any free)."""
        env = os.environ
        return cls(listen=settings.listen(env))
