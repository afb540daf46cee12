"""The arbitration's settings: numbers checked like every service's, by name."""

from __future__ import annotations

import pytest

from services.arbitration.config import Config
from services.common.jetstream_config import LogLimits
from services.common.settings import ConfigError


def test_the_defaults_and_the_shared_listen_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PF_GRPC_PORT", "7102")
    monkeypatch.setenv("PF_BANK_MS", "1200")
    config = Config.from_env()
    assert (config.listen.grpc_port, config.listen.metrics_port) == (7102, 0)
    assert (config.bank_ms, config.grace_ms, config.gate_timeout_s) == (1200, 10_000, 30.0)


@pytest.mark.parametrize(
    ("name", "value"), [("PF_GRACE_MS", "ten"), ("PF_ADOPT_EVERY_S", "-1"), ("PF_GRPC_PORT", "x")]
)
def test_a_bad_number_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=name):
        Config.from_env()


def test_the_log_streams_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Config.from_env().log_limits == LogLimits()  # 90 days, 4 GiB, 20,000 a match
    monkeypatch.setenv("PF_LOG_MAX_AGE_DAYS", "30")
    monkeypatch.setenv("PF_LOG_MAX_BYTES", "0")
    monkeypatch.setenv("PF_LOG_ENTRIES_PER_MATCH", "5000")
    assert Config.from_env().log_limits == LogLimits(30.0, 0, 5000)
    monkeypatch.setenv("PF_LOG_ENTRIES_PER_MATCH", "99")  # no room for a match and its end
    with pytest.raises(ConfigError, match="PF_LOG_ENTRIES_PER_MATCH"):
        Config.from_env()
