"""What the stack keeps under its data folder is its owner's alone: folders 0700, files 0600
(match logs, databases, every process's log)."""

from __future__ import annotations

import stat
from pathlib import Path

import aiohttp

from photofinish.game.v1 import game_pb2
from services.stack.stack import StackConfig, run_stack
from tests.e2e.support import player


async def test_every_file_and_folder_the_stack_makes_is_private(tmp_path: Path) -> None:
    data = tmp_path / "var"
    async with (
        run_stack(StackConfig(data, with_bots=False)) as stack,
        aiohttp.ClientSession() as http,
    ):
        ann = await player(http, stack, "Ann")
        await ann.play_hot_seat(game_pb2.GAME_BID)  # a match log in JetStream, on disk
        made = [data, *data.rglob("*")]
    names = {path.name for path in made}
    assert {"logs", "nats", "gateway.log", "ratings.sqlite3", "ops.password"} <= names, sorted(
        names
    )
    public = [
        f"{path.relative_to(tmp_path)} {stat.filemode(path.stat().st_mode)}"
        for path in made
        if path.exists() and path.stat().st_mode & 0o077
    ]
    assert public == []
