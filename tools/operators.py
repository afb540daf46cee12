"""Grant or take away the operator role, which opens the fair-play queue (docs/fair-play.md).

`python -m tools.operators grant NAME`, `revoke NAME` or `list`, against the accounts
database the accounts service uses (the same DATABASE_URL, or PF_DATA_DIR's SQLite file;
`make operator NAME=…` points it at `make run`'s). The role reaches the operator's page
at their next sign-in, or within the access token's ten minutes; taken away, it lasts
on the tokens already issued until they expire.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from services.accounts.config import Config
from services.accounts.names import key
from services.accounts.store import Store
from services.common.database import Database


async def run(command: str, name: str) -> int:
    store = Store(Database(Config.from_env().database))
    await store.database.open()
    try:
        await store.migrate()
        if command == "list":
            for username in await store.operators():
                print(username)
            return 0
        account = await store.set_operator(key(name), command == "grant")
        if account is None:
            print(f"no account named {name!r}", file=sys.stderr)
            return 1
        held = "now holds" if command == "grant" else "no longer holds"
        print(f"{account.username} {held} the operator role")
        return 0
    finally:
        await store.database.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.operators", description=__doc__)
    parser.add_argument("command", choices=("grant", "revoke", "list"))
    parser.add_argument("name", nargs="?", default="", help="the account's username")
    args = parser.parse_args(argv)
    if args.command != "list" and not args.name:
        parser.error(f"{args.command} needs the account's username")
    return asyncio.run(run(args.command, args.name))


if __name__ == "__main__":
    sys.exit(main())
