"""Mounting the translator: config checks, and serving from a sub-application under a prefix."""

from __future__ import annotations

import aiohttp
import pytest
from aiohttp import web

from services.gateway.grpcweb import GrpcWebConfig, Route, create_app
from tests.gateway.grpcweb import webclient
from tests.gateway.grpcweb.conftest import Backend, gateway_config
from tests.gateway.grpcweb.probe import SERVICE


def test_route_paths_must_name_a_dotted_service_and_a_method() -> None:
    with pytest.raises(ValueError, match="not of the form"):
        GrpcWebConfig(routes={"/Health/Check": Route.unary("b")}, backends={"b": "x:1"})


def test_routes_must_name_a_known_backend() -> None:
    with pytest.raises(ValueError, match="unknown backend 'rules'"):
        GrpcWebConfig(routes={"/a.B/C": Route.unary("rules")}, backends={})


async def test_sub_application_serves_under_its_prefix(backend: Backend) -> None:
    app = web.Application()
    app.add_subapp("/rpc", create_app(gateway_config(backend.port)))
    runner = web.AppRunner(app, handler_cancellation=True)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    try:
        async with aiohttp.ClientSession() as session:
            reply = await webclient.call(session, f"http://{host}:{port}/rpc/{SERVICE}/Echo", b"hi")
    finally:
        await runner.cleanup()
    assert (reply.messages, reply.status) == ([b"hi"], 0)
