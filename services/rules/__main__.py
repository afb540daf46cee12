"""Run the rules service: `python -m services.rules`.

It holds the states of the matches it serves and answers the arbitration's batches of
calls about them over NATS (the hot path: ``held_calls`` and ``held_matches``); over gRPC
it answers the same calls one at a time about a state the request carries, with health
checking and reflection like every service.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from runtime import logs, loops
from services.common.natslink.link import NatsLink
from services.common.serving import serve
from services.rules.config import Config
from services.rules.held_calls import HeldCallServer
from services.rules.held_matches import HeldMatches
from services.rules.replay_requests import ReplayServer
from services.rules.servicer import register


async def main(config: Config) -> None:
    @contextlib.asynccontextmanager
    async def lifespan() -> AsyncIterator[None]:
        # Its writes leave at each turn's end, held for nothing: what it reads comes in the
        # arbitration's held writes already, so a hold here would only delay the answers.
        link = await NatsLink.connect(config.nats_url, f"rules-{config.instance}")
        held_calls = HeldCallServer(link, HeldMatches(config.lift_pause_ms), config.instance)
        held_calls.start()
        replays = ReplayServer(link)
        replays.start()
        try:
            yield
        finally:
            held_calls.stop()
            replays.stop()
            await link.close()  # the answers already made are sent first

    await serve(
        "rules", config.listen, lambda server: register(server, config.lift_pause_ms), lifespan
    )


if __name__ == "__main__":
    logs.configure("rules")
    loops.run(main(Config.from_env()))
