"""Run the tournaments service: ``python -m services.tournaments`` (configuration: config.py)."""

from __future__ import annotations

from services.common.startup import main as run_service
from services.tournaments.config import Config
from services.tournaments.service import TournamentsService


def main() -> None:
    run_service("tournaments", Config.from_env(), TournamentsService)


if __name__ == "__main__":
    main()
