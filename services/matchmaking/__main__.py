"""Run the matchmaking service: ``python -m services.matchmaking``."""

from __future__ import annotations

import dataclasses

from runtime import loops
from runtime.logs import configure
from services.common.serving import serve
from services.matchmaking import pools
from services.matchmaking.config import Config
from services.matchmaking.service import Service


def main() -> None:
    config = Config.from_env()
    configure("matchmaking", config.log_level)
    service = Service(config)
    # The pools' door (BotPools) is for the caller named "bots" alone, and it for nothing else.
    listen = dataclasses.replace(config.listen, reserved=((pools.METHODS, pools.CALLER),))
    loops.run(serve("matchmaking", listen, service.register, service.lifespan))


if __name__ == "__main__":
    main()
