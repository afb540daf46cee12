"""Settings from the environment."""

from __future__ import annotations

import pytest

from services.matchmaking.config import Config
from services.matchmaking.window import Window


def test_defaults_listen_on_free_local_ports_and_wait_3_s_for_nats_replies() -> None:
    config = Config.from_env({})
    assert (config.listen.host, config.listen.grpc_port, config.listen.metrics_port) == (
        "127.0.0.1",
        0,
        0,
    )
    assert config.nats_url == "nats://127.0.0.1:4222"
    assert config.request_timeout_s == 3.0


def test_every_setting_comes_from_its_variable() -> None:
    config = Config.from_env(
        {
            "PF_HOST": "0.0.0.0",
            "PF_GRPC_PORT": "7003",
            "PF_METRICS_PORT": "9003",
            "NATS_URL": "nats://nats:4222",
            "PF_MATCHMAKING_REQUEST_TIMEOUT_S": "1.5",
            "PF_LOG_LEVEL": "DEBUG",
        }
    )
    assert (config.listen.host, config.listen.grpc_port, config.listen.metrics_port) == (
        "0.0.0.0",
        7003,
        9003,
    )
    assert (config.nats_url, config.request_timeout_s, config.log_level) == (
        "nats://nats:4222",
        1.5,
        "DEBUG",
    )


def test_ratings_address_window_rematch_and_pairing_settings() -> None:
    defaults = Config.from_env({})
    assert (defaults.ratings_addr, defaults.ratings_timeout_s) == ("", 1.0)
    assert defaults.window == Window(50, 10, 500)
    assert (defaults.rematch_cooldown_s, defaults.pairing_interval_s) == (600, 1.0)
    config = Config.from_env(
        {
            "PF_RATINGS_ADDR": "127.0.0.1:7104",
            "PF_MATCHMAKING_RATINGS_TIMEOUT_S": "0.5",
            "PF_MATCHMAKING_WINDOW_START": "100",
            "PF_MATCHMAKING_WINDOW_GROWTH_PER_S": "25",
            "PF_MATCHMAKING_WINDOW_CAP": "400",
            "PF_MATCHMAKING_REMATCH_COOLDOWN_S": "0",
            "PF_MATCHMAKING_PAIRING_INTERVAL_S": "0.25",
        }
    )
    assert (config.ratings_addr, config.ratings_timeout_s) == ("127.0.0.1:7104", 0.5)
    assert config.window == Window(100, 25, 400)
    assert (config.rematch_cooldown_s, config.pairing_interval_s) == (0, 0.25)


@pytest.mark.parametrize(
    "env",
    [
        {"PF_MATCHMAKING_WINDOW_CAP": "10"},
        {"PF_MATCHMAKING_WINDOW_GROWTH_PER_S": "-1"},
        {"PF_MATCHMAKING_PAIRING_INTERVAL_S": "0"},
        {"PF_MATCHMAKING_REMATCH_COOLDOWN_S": "-5"},
        {"PF_MATCHMAKING_WINDOW_START": "wide"},
    ],
)
def test_settings_that_cannot_work_are_refused_at_start(env: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        Config.from_env(env)
