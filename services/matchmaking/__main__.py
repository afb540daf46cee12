"""Run the matchmaking service: ``python -m services.matchmaking``."""

from __future__ import annotations

import dataclasses

from services.common.startup import main as run_service
from services.matchmaking import pools
from services.matchmaking.config import Config
from services.matchmaking.service import Service


def main() -> None:
    config = Config.from_env()
    # The pools' door (BotPools) is for the caller named "bots" alone, and it for nothing else.
    listen = dataclasses.replace(config.listen, reserved=((pools.METHODS, pools.CALLER),))
    run_service("matchmaking", config, Service, listen)


if __name__ == "__main__":
    main()
