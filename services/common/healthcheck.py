"""A container health probe: ``python -m services.common.healthcheck ADDRESS|URL``.

``host:port`` asks the gRPC health service (exit 0 when SERVING); an ``http://`` URL
expects status 200 (the gateway's ``/healthz``). Exit 1 otherwise, saying why on stderr.
"""

from __future__ import annotations

import sys
import urllib.error
import urllib.request
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

TIMEOUT_S = 2.0


def grpc_problem(address: str, service: str = "") -> str | None:
    """Return why the gRPC service at ``address`` is not SERVING, or None when it is."""
    with grpc.insecure_channel(address) as channel:
        # The generated stub's hints miss the methods added at run time.
        stub: Any = health_pb2_grpc.HealthStub(channel)
        try:
            reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=TIMEOUT_S)
        except grpc.RpcError as error:
            return f"{address}: {error.code().name}"
    if reply.status != health_pb2.HealthCheckResponse.SERVING:
        return f"{address}: {health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)}"
    return None


def http_problem(url: str) -> str | None:
    """Return why ``url`` does not answer 200, or None when it does."""
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response:
            status: int = response.status
    except (urllib.error.URLError, OSError) as error:
        return f"{url}: {error}"
    return None if status == 200 else f"{url}: HTTP {status}"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m services.common.healthcheck HOST:PORT | http://…", file=sys.stderr)
        return 2
    target = argv[0]
    problem = http_problem(target) if target.startswith("http") else grpc_problem(target)
    if problem is not None:
        print(f"unhealthy: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
