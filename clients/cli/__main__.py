"""Play from a terminal: ``python -m clients.cli --url http://127.0.0.1:7100 [--name NAME]``."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from clients.cli.app import run
from clients.cli.console import Console
from clients.cli.words import LANGUAGES, chosen_language, speak, t


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m clients.cli", description=t("cli.args.about"))
    parser.add_argument("--url", default="http://127.0.0.1:7100", help=t("cli.args.url"))
    parser.add_argument("--name", help=t("cli.args.name"))
    parser.add_argument("--user", help=t("cli.args.user"))
    parser.add_argument("--guest", action="store_true", help=t("cli.args.guest"))
    parser.add_argument("--no-clear", action="store_true", help=t("cli.args.no_clear"))
    codes = ", ".join(f"{language.code} ({language.name})" for language in LANGUAGES)
    parser.add_argument("--lang", help=t("cli.args.lang", codes=codes))
    return parser


def main() -> int:
    # The language first, so that even --help and argparse's errors are in it.
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang")
    try:
        speak(chosen_language(early.parse_known_args()[0].lang, os.environ))
    except ValueError as unknown:
        codes = ", ".join(language.code for language in LANGUAGES)
        early.error(t("cli.args.unknown_lang", lang=str(unknown), codes=codes))
    args = _parser().parse_args()
    console = Console(sys.stdin, sys.stdout, clear_screen=not args.no_clear)
    try:
        return asyncio.run(run(args.url, args.name, console, args.user, guest=args.guest))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("\n" + t("cli.interrupted"), flush=True)
        return 130


if __name__ == "__main__":
    sys.exit(main())
