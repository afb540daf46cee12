"""PF_METRICS_TARGETS: which services the ops page reads."""

from __future__ import annotations

import pytest

from services.gateway.ops.targets import MetricsTarget, parse_targets


def test_targets_are_read_in_order_with_their_urls() -> None:
    targets = parse_targets("rules=127.0.0.1:7200, arbitration-0=arbitration-0.pf:7202")
    assert targets == (
        MetricsTarget("rules", "127.0.0.1:7200"),
        MetricsTarget("arbitration-0", "arbitration-0.pf:7202"),
    )
    assert targets[0].url == "http://127.0.0.1:7200/metrics"


def test_no_targets_is_an_empty_list() -> None:
    assert parse_targets("") == ()


@pytest.mark.parametrize("text", ["rules", "rules=host", "=h:1", "Rules=h:1", "a=h:1/x"])
def test_an_entry_that_is_not_name_equals_address_is_refused_quoting_it(text: str) -> None:
    with pytest.raises(ValueError, match="is not name=host:port") as error:
        parse_targets(f"ratings=r:1,{text}")
    assert repr(text) in str(error.value)


def test_a_name_given_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="'rules' twice"):
        parse_targets("rules=a:1,rules=b:2")
