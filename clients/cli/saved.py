"""An account's session kept between runs: its refresh token, per gateway, readable by its
owner alone (``$XDG_CONFIG_HOME/photofinish/session.json``, mode 0600)."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path


def default_path(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".config")
    return Path(base) / "photofinish" / "session.json"


class SavedSessions:
    """The refresh token saved for each gateway URL."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def refresh_token(self, url: str) -> str:
        entry = self._read().get(url, {})
        token = entry.get("refresh_token", "") if isinstance(entry, dict) else ""
        return token if isinstance(token, str) else ""

    def save(self, url: str, username: str, refresh_token: str) -> None:
        sessions = self._read()
        sessions[url] = {"username": username, "refresh_token": refresh_token}
        self._write(sessions)

    def forget(self, url: str) -> None:
        sessions = self._read()
        if sessions.pop(url, None) is not None:
            self._write(sessions)

    def _read(self) -> dict[str, object]:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, sessions: dict[str, object]) -> None:
        """Write to a new file made 0600 before any secret is in it, then put it in place."""
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fresh = self.path.with_suffix(".tmp")
        with contextlib.suppress(FileNotFoundError):
            fresh.unlink()
        fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump(sessions, out)
        os.replace(fresh, self.path)
