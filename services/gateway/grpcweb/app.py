"""Mounting the gRPC-web translator on an aiohttp application."""

from __future__ import annotations

from aiohttp import web

from services.gateway.grpcweb.backends import backends_context, end_streams
from services.gateway.grpcweb.config import GrpcWebConfig
from services.gateway.grpcweb.proxy import GrpcWebProxy, MetadataHook
from services.gateway.grpcweb.routes import METHOD_PATTERN, SERVICE_PATTERN

ROUTE = f"/{{service:{SERVICE_PATTERN}}}/{{method:{METHOD_PATTERN}}}"


def setup(
    app: web.Application, config: GrpcWebConfig, hook: MetadataHook | None = None
) -> GrpcWebProxy:
    """Adds the gRPC-web routes to `app`, and the channels' lifetime to its startup/cleanup.

    Routes match "/package.Service/Method" (a dotted package is required, so static paths
    stay free); methods off the allow-list get UNIMPLEMENTED. One translator per app: the
    channels live under one app key. Returns the proxy, whose handlers these are.

    Serve `app` with a runner that cancels a handler when its client goes away
    (``web.AppRunner(app, handler_cancellation=True)``): that is how a server stream learns
    its browser has gone and cancels its backend call at once (disconnect.py).
    """
    proxy = GrpcWebProxy(config, hook)
    app.router.add_route("POST", ROUTE, proxy.handle)
    app.router.add_route("OPTIONS", ROUTE, proxy.preflight)
    app.cleanup_ctx.append(backends_context(config))
    app.on_shutdown.append(end_streams)
    return proxy


def create_app(config: GrpcWebConfig, hook: MetadataHook | None = None) -> web.Application:
    """Returns a sub-application serving gRPC-web, to mount with `app.add_subapp(prefix, ...)`."""
    app = web.Application()
    setup(app, config, hook)
    return app
