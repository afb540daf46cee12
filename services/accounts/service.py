"""The accounts process's parts wired together: database, password hasher, gRPC servicer."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor

import grpc
from prometheus_client import Counter

from photofinish.accounts.v1 import accounts_pb2, accounts_pb2_grpc
from services.accounts.config import Config
from services.accounts.credentials import Credentials
from services.accounts.outbox import Outbox, tell
from services.accounts.passkeys import Passkeys
from services.accounts.passwords import Hasher
from services.accounts.servicer import AccountsServicer
from services.accounts.signing import Signing
from services.accounts.store import Store
from services.common.database import Database
from services.common.startup import keep_running, open_database

log = logging.getLogger("accounts")

FAILED_SIGN_INS = Counter(
    "pf_accounts_failed_sign_ins",
    "Sign-ins refused for a wrong name or password (an alert watches for a spike)",
)


class AccountsService:
    """What ``serve`` runs: ``lifespan`` opens the store around the server."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.store = Store(Database(config.database))
        self._hashing = ThreadPoolExecutor(config.hash_threads, thread_name_prefix="argon2")
        hasher = Hasher(
            self._hashing,
            time_cost=config.argon2_time_cost,
            memory_kib=config.argon2_memory_kib,
        )
        self._deleted = asyncio.Event()  # set at each deletion: tell the arena now
        self.signing = Signing(
            self.store,
            hasher,
            on_failed_sign_in=FAILED_SIGN_INS.inc,
            on_deleted=self._deleted.set,
        )
        self.passkeys = Passkeys(Credentials(self.store.database), self.store)

    def register(self, server: grpc.aio.Server) -> Sequence[str]:
        accounts_pb2_grpc.add_AccountsServicer_to_server(
            AccountsServicer(self.signing, self.passkeys), server
        )
        return [accounts_pb2.DESCRIPTOR.services_by_name["Accounts"].full_name]

    @contextlib.asynccontextmanager
    async def lifespan(self) -> AsyncIterator[None]:
        """Open the database (migrated) and start telling the arena of deleted accounts;
        stop and close them, and the hashing threads, after."""
        async with contextlib.AsyncExitStack() as stack:
            stack.callback(self._hashing.shutdown)
            await open_database(stack, self.store, log)
            outbox = Outbox(self.store.database)
            telling = tell(self.config.nats_url, outbox, self._deleted, self.config.tell_retry_s)
            keep_running(stack, "tell-deletions", telling)
            yield
