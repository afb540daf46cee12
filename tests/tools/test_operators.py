"""`python -m tools.operators`: the operator role granted and taken away by username, and
carried by the account's next session."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.accounts.names import key
from services.accounts.store import Store
from services.common.database import Database, SqliteFile
from tools import operators


async def test_grant_then_revoke_reaches_the_next_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PF_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    store = Store(Database(SqliteFile(tmp_path / "accounts.sqlite3")))
    await store.database.open()
    try:
        await store.migrate()
        ann = await store.create("a_ann", "Ann", key("Ann"), "$argon2id$hash")
        assert ann is not None and not (await store.begin(ann, "desktop")).operator

        assert await operators.run("grant", "ANN") == 0
        assert "Ann now holds the operator role" in capsys.readouterr().out
        account = await store.account(key("Ann"))
        assert account is not None and account.operator
        signed = await store.begin(account, "desktop")
        assert signed.operator
        assert (await store.refresh(signed.refresh_token)).operator
        assert await operators.run("list", "") == 0
        assert capsys.readouterr().out == "Ann\n"

        assert await operators.run("revoke", "Ann") == 0
        assert not (await store.refresh((await store.begin(account, "x")).refresh_token)).operator
        assert await operators.run("grant", "nobody") == 1
        assert "no account named 'nobody'" in capsys.readouterr().err
    finally:
        await store.database.close()
