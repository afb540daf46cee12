"""The ops page: the key figures of every service, read from their `/metrics`."""

from services.gateway.ops.credential import failure_rate, password_from
from services.gateway.ops.page import OPS_PAGE
from services.gateway.ops.routes import add_ops_routes
from services.gateway.ops.targets import MetricsTarget, parse_targets

__all__ = [
    "OPS_PAGE",
    "MetricsTarget",
    "add_ops_routes",
    "failure_rate",
    "parse_targets",
    "password_from",
]
