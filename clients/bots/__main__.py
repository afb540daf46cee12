"""Run the bot pool: ``python -m clients.bots``."""

from __future__ import annotations

from clients.bots.config import Config
from clients.bots.pool import serve
from runtime import loops
from runtime.logs import configure


def main() -> None:
    config = Config.from_env()
    configure("bots", config.log_level)
    loops.run(serve(config))


if __name__ == "__main__":
    main()
