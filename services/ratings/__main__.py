"""Run the ratings service: ``python -m services.ratings`` (configuration: config.py)."""

from __future__ import annotations

from services.common.startup import main as run_service
from services.ratings.config import Config
from services.ratings.service import RatingsService


def main() -> None:
    run_service("ratings", Config.from_env(), RatingsService)


if __name__ == "__main__":
    main()
