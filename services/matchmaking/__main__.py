"""Run the matchmaking service: ``python -m services.matchmaking``."""

from __future__ import annotations

from services.common.serving import serve
from services.matchmaking.config import Config
from services.matchmaking.service import Service
from wire import loops
from wire.logs import configure


def main() -> None:
    config = Config.from_env()
    configure("matchmaking", config.log_level)
    service = Service(config)
    loops.run(serve("matchmaking", config.listen, service.register, service.lifespan))


if __name__ == "__main__":
    main()
