"""Run the ratings service: ``python -m services.ratings`` (configuration: config.py)."""

from __future__ import annotations

from runtime import loops
from runtime.logs import configure
from services.common.serving import serve
from services.ratings.config import Config
from services.ratings.service import RatingsService


def main() -> None:
    config = Config.from_env()
    configure("ratings", config.log_level)
    service = RatingsService(config)
    loops.run(serve("ratings", config.listen, service.register, service.lifespan))


if __name__ == "__main__":
    main()
