"""The pool's settings from the environment: defaults, a seed, and what is refused."""

from __future__ import annotations

import pytest

from clients.bots.config import Config

GATEWAY = {"PF_GATEWAY_URL": "http://127.0.0.1:8080"}


def test_defaults_play_at_the_bots_designed_pace_with_no_seed() -> None:
    config = Config.from_env(GATEWAY)
    assert config.gateway_url == "http://127.0.0.1:8080"
    assert config.matchmaking_addr == "127.0.0.1:7103" and config.caller_token == ""
    assert config.seed is None and config.think_scale == 1.0
    assert config.max_seats >= 100


def test_a_seed_and_a_faster_pace_are_read() -> None:
    env = {**GATEWAY, "PF_BOTS_SEED": "42", "PF_BOTS_THINK_SCALE": "0.02"}
    config = Config.from_env(env)
    assert (config.seed, config.think_scale) == (42, 0.02)


def test_the_gateway_url_is_required() -> None:
    with pytest.raises(KeyError):
        Config.from_env({})


@pytest.mark.parametrize(
    "setting",
    [("PF_BOTS_THINK_SCALE", "-1"), ("PF_BOTS_MAX_SEATS", "0"), ("PF_BOTS_SEED", "x")],
)
def test_impossible_settings_are_refused(setting: tuple[str, str]) -> None:
    with pytest.raises(ValueError):
        Config.from_env({**GATEWAY, setting[0]: setting[1]})
