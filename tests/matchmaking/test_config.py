"""Settings from the environment."""

from __future__ import annotations

from services.matchmaking.config import Config


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
