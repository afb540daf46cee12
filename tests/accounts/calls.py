"""What the servicer tests ask of a refused call."""

from __future__ import annotations

from collections.abc import Awaitable

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status


async def refusal(call: Awaitable[object]) -> tuple[grpc.StatusCode, str, dict[str, str]]:
    """The call's status code, reason and metadata; it must be refused."""
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await call
    status = rpc_status.from_call(error.value)  # type: ignore[arg-type]
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    status.details[0].Unpack(info)
    return error.value.code(), info.reason, dict(info.metadata)
