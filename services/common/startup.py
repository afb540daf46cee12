"""What starting a service shares: its main, its database opened and migrated, its loops.

``python -m services.<name>`` reads the configuration, sets up the log lines and serves
gRPC with the service's lifespan around the server (``main``). Inside that lifespan, a
service with a database opens and migrates it (``open_database``), and each loop it keeps
(a consumer, a director) is started with ``keep_running``: a loop that dies stops the
process, and leaving the lifespan stops the loop. The services started here (ratings,
tournaments, matchmaking, accounts) are off a command's way: their event loop's lag is
sampled once a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Protocol, TypeVar

import grpc

from runtime import loops
from runtime.logs import configure
from services.common import tasks
from services.common.database import Database, SqliteFile
from services.common.metrics import OFF_PATH_LAG_SAMPLE_INTERVAL_S
from services.common.serving import Listen, serve


class Configured(Protocol):
    """What every service's configuration holds."""

    @property
    def listen(self) -> Listen: ...

    @property
    def log_level(self) -> str: ...


class Served(Protocol):
    """What ``serve`` runs: the gRPC services it registers, and what lives around them."""

    def register(self, server: grpc.aio.Server) -> Sequence[str]: ...

    def lifespan(self) -> contextlib.AbstractAsyncContextManager[None]: ...


class Migrated(Protocol):
    """A store on a database whose schema it brings up to date."""

    @property
    def database(self) -> Database: ...

    async def migrate(self) -> tuple[int, ...]: ...


C = TypeVar("C", bound=Configured)


def main(name: str, config: C, make: Callable[[C], Served], listen: Listen | None = None) -> None:
    """Run service ``name`` until SIGINT or SIGTERM (``listen`` in place of the config's)."""
    configure(name, config.log_level)
    service = make(config)
    loops.run(
        serve(
            name,
            listen or config.listen,
            service.register,
            service.lifespan,
            lag_every_s=OFF_PATH_LAG_SAMPLE_INTERVAL_S,
        )
    )


async def open_database(
    stack: contextlib.AsyncExitStack, store: Migrated, log: logging.Logger
) -> None:
    """Open ``store``'s database, closed when ``stack`` closes, and migrate it."""
    await store.database.open()
    stack.push_async_callback(store.database.close)
    applied = await store.migrate()
    target = store.database.target
    where = str(target.path) if isinstance(target, SqliteFile) else "postgresql"
    fields = {"database": where, "migrations_applied": list(applied)}
    log.info("database ready", extra={"fields": fields})


def keep_running(
    stack: contextlib.AsyncExitStack, name: str, work: Coroutine[Any, Any, None]
) -> asyncio.Task[None]:
    """Start ``work`` as one of the process's loops: if it fails, the process stops
    (``tasks.stop_process_if_failed``); when ``stack`` closes, it is stopped for sure."""
    task = asyncio.create_task(work, name=name)
    task.add_done_callback(tasks.stop_process_if_failed)
    stack.push_async_callback(tasks.stop, task)
    return task
