"""Run the accounts service: ``python -m services.accounts`` (configuration: config.py)."""

from __future__ import annotations

from runtime import loops
from runtime.logs import configure
from services.accounts.config import Config
from services.accounts.service import AccountsService
from services.common.serving import serve


def main() -> None:
    config = Config.from_env()
    configure("accounts", config.log_level)
    service = AccountsService(config)
    loops.run(serve("accounts", config.listen, service.register, service.lifespan))


if __name__ == "__main__":
    main()
