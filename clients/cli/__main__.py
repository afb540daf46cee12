"""Play from a terminal: ``python -m clients.cli --url http://127.0.0.1:7100 [--name NAME]``."""

from __future__ import annotations

import argparse
import asyncio
import sys

from clients.cli.app import run
from clients.cli.console import Console


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m clients.cli", description=__doc__)
    parser.add_argument("--url", default="http://127.0.0.1:7100", help="the gateway")
    parser.add_argument("--name", help="play as a guest with this display name")
    parser.add_argument(
        "--user", help="sign in with this account (the password is asked for, not shown)"
    )
    parser.add_argument(
        "--guest", action="store_true", help="play as a guest even with a saved session"
    )
    parser.add_argument(
        "--no-clear", action="store_true", help="never clear the screen between boards"
    )
    args = parser.parse_args()
    console = Console(sys.stdin, sys.stdout, clear_screen=not args.no_clear)
    try:
        return asyncio.run(run(args.url, args.name, console, args.user, guest=args.guest))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("\nInterrupted.", flush=True)
        return 130


if __name__ == "__main__":
    sys.exit(main())
