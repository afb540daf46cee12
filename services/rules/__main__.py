"""Run the rules service: `python -m services.rules`.

It answers the arbitration's batches over NATS (the hot path, ``hop``) and the same calls
one at a time over gRPC, with health checking and reflection like every service.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import nats

from services.common.serving import serve
from services.rules.config import Config
from services.rules.hop import serve_calls
from services.rules.servicer import register
from wire import logs, loops


async def main(config: Config) -> None:
    @contextlib.asynccontextmanager
    async def lifespan() -> AsyncIterator[None]:
        nc = await nats.connect(config.nats_url, name="rules", max_reconnect_attempts=-1)
        await serve_calls(nc, config.lift_pause_ms)
        try:
            yield
        finally:
            await nc.drain()  # the batches already taken are answered first

    await serve(
        "rules", config.listen, lambda server: register(server, config.lift_pause_ms), lifespan
    )


if __name__ == "__main__":
    logs.configure("rules")
    loops.run(main(Config.from_env()))
