"""Metric names an expression reads, from the PromQL parser's syntax tree."""

from __future__ import annotations

import re

import promql_parser

# Grafana's variables become plain values before parsing.
GRAFANA_VARIABLES = {"$__rate_interval": "5m", "$__interval": "1m", "$__range": "1h"}


def metric_names(expr: str) -> set[str]:
    """Return the metric names ``expr`` selects.

    Raises:
        ValueError: when ``expr`` is not valid PromQL.
    """
    for variable, value in GRAFANA_VARIABLES.items():
        expr = expr.replace(variable, value)
    if re.search(r"\$\w", expr):
        raise ValueError(f"unknown variable in {expr!r}")
    tree = promql_parser.parse(expr)
    names: set[str] = set()

    def visit(node: object) -> None:
        if isinstance(node, promql_parser.VectorSelector) and node.name:
            names.add(node.name)

    promql_parser.walk(tree, visit)
    return names
