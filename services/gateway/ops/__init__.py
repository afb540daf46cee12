"""The ops page: the key figures of every service, read from their `/metrics`."""

from services.gateway.ops.page import OPS_PAGE
from services.gateway.ops.routes import add_ops_routes
from services.gateway.ops.targets import MetricsTarget, parse_targets

__all__ = ["OPS_PAGE", "MetricsTarget", "add_ops_routes", "parse_targets"]
