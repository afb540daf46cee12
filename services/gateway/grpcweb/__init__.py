"""gRPC-web to gRPC translation inside aiohttp: no Envoy, raw bytes, an explicit allow-list.

Mount it with `setup(app, config, hook)` (or `app.add_subapp(prefix, create_app(config))`),
and serve the app with `web.AppRunner(app, handler_cancellation=True)` (disconnect.py):

    config = GrpcWebConfig(
        routes={"/photofinish.arbitration.v1.Arbitration/Submit": Route.unary("arbitration")},
        backends={"arbitration": "127.0.0.1:7001"},
    )
"""

from services.gateway.grpcweb.app import create_app, setup
from services.gateway.grpcweb.backends import BACKENDS, Backends
from services.gateway.grpcweb.config import GrpcWebConfig
from services.gateway.grpcweb.cors import CorsPolicy
from services.gateway.grpcweb.forward import end_stream
from services.gateway.grpcweb.metadata import HeaderPolicy
from services.gateway.grpcweb.proxy import GrpcWebProxy, MetadataHook
from services.gateway.grpcweb.refusal import RequestRefused
from services.gateway.grpcweb.routes import MethodKind, Route

__all__ = [
    "BACKENDS",
    "Backends",
    "CorsPolicy",
    "GrpcWebConfig",
    "GrpcWebProxy",
    "HeaderPolicy",
    "MetadataHook",
    "MethodKind",
    "RequestRefused",
    "Route",
    "create_app",
    "end_stream",
    "setup",
]
