"""Run the rules service: `python -m services.rules`."""

from __future__ import annotations

import asyncio

from services.common.serving import serve
from services.rules.config import Config
from services.rules.servicer import register
from wire import logs


async def main(config: Config) -> None:
    await serve("rules", config.listen, lambda server: register(server, config.lift_pause_ms))


if __name__ == "__main__":
    logs.configure("rules")
    asyncio.run(main(Config.from_env()))
