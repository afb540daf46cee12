"""The environment the ratings process reads, and what it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.common.database import Postgres, SqliteFile
from services.common.settings import ConfigError
from services.ratings.config import Config
from services.ratings.faults import CrashPoint, FaultPlan


def test_defaults_store_in_sqlite_under_var_with_a_ten_second_ack_wait() -> None:
    config = Config.from_env({})
    assert config.database == SqliteFile(Path("var/ratings.sqlite3"))
    assert config.listen.host == "127.0.0.1" and config.listen.metrics_port == 0
    assert config.ack_wait_s == 10.0
    assert config.faults == FaultPlan()


def test_a_postgresql_url_selects_postgresql_and_data_dir_moves_sqlite() -> None:
    url = "postgresql://postgres@db:5432/pf"
    assert Config.from_env({"DATABASE_URL": url}).database == Postgres(url)
    config = Config.from_env({"PF_DATA_DIR": "/srv/pf", "PF_RATINGS_ACK_WAIT_S": "1.5"})
    assert config.database == SqliteFile(Path("/srv/pf/ratings.sqlite3"))
    assert config.ack_wait_s == 1.5


def test_a_crash_point_is_read_for_fault_injection() -> None:
    env = {"PF_RATINGS_CRASH_AT": "after_commit", "PF_RATINGS_CRASH_ON_MESSAGE": "3"}
    assert Config.from_env(env).faults == FaultPlan(CrashPoint.AFTER_COMMIT, 3)


@pytest.mark.parametrize(
    "env",
    [
        {"DATABASE_URL": "mysql://db/pf"},
        {"PF_GRPC_PORT": "http"},
        {"PF_RATINGS_ACK_WAIT_S": "0"},
        {"PF_RATINGS_FETCH_BATCH": "-2"},
        {"PF_RATINGS_CRASH_AT": "sometime"},
    ],
)
def test_unusable_values_are_refused_naming_the_variable(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError, match=next(iter(env))):
        Config.from_env(env)
