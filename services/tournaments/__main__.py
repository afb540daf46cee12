"""Run the tournaments service: ``python -m services.tournaments`` (configuration: config.py)."""

from __future__ import annotations

from runtime import loops
from runtime.logs import configure
from services.common.serving import serve
from services.tournaments.config import Config
from services.tournaments.service import TournamentsService


def main() -> None:
    config = Config.from_env()
    configure("tournaments", config.log_level)
    service = TournamentsService(config)
    loops.run(serve("tournaments", config.listen, service.register, service.lifespan))


if __name__ == "__main__":
    main()
