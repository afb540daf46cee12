"""Run the accounts service: ``python -m services.accounts`` (configuration: config.py)."""

from __future__ import annotations

from services.accounts.config import Config
from services.accounts.service import AccountsService
from services.common.startup import main as run_service


def main() -> None:
    run_service("accounts", Config.from_env(), AccountsService)


if __name__ == "__main__":
    main()
