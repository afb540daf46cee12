"""Who may call a service's gRPC port: the services it serves, each known by its token.

Each calling service (the gateway; matchmaking, for ratings) sends its own token in the
``x-pf-caller-token`` metadata of every call (:func:`channel`). A service knows its
callers by the SHA-256 of their tokens (``PF_CALLERS``: ``gateway=<hex>,…``), so it can
check a caller without being able to pose as one. A call without a known token is refused
``UNAUTHENTICATED`` (``unknown_caller``), and a player's identity in metadata is believed
from the gateway alone: from any other caller it is refused ``PERMISSION_DENIED``
(``identity_from_gateway_only``). Health checks need no token: probes make them.

With ``PF_CALLERS`` unset a service accepts any caller and says so at start: a service
run by hand, or by a test of one service alone.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

import grpc
from grpc_health.v1 import health_pb2

from services.common.identity import PLAYER_ID, PLAYER_NAME
from wire.metadata import CALLER_TOKEN

TOKEN = CALLER_TOKEN
GATEWAY = "gateway"
IDENTITY = (PLAYER_ID, PLAYER_NAME)
# What a probe may ask of any service without a token.
OPEN_PREFIXES = (f"/{health_pb2.DESCRIPTOR.services_by_name['Health'].full_name}/",)

# Who calls each service's gRPC port, by caller name: the one table make run, the tests'
# stacks and the deployments' credentials (tools/deploy/credentials.py) are made from.
# The rules service is asked over NATS; its port serves the gateway for the record.
ACCEPTED: dict[str, tuple[str, ...]] = {
    "rules": (GATEWAY,),
    "ratings": (GATEWAY, "matchmaking"),
    "arbitration": (GATEWAY,),
    "matchmaking": (GATEWAY, "bots"),
    "tournaments": (GATEWAY,),
    "accounts": (GATEWAY,),
}
# Every caller that holds a token: those that call somebody.
CALLERS = tuple(dict.fromkeys(name for names in ACCEPTED.values() for name in names))

if TYPE_CHECKING:
    Handler: TypeAlias = grpc.RpcMethodHandler[Any, Any]

log = logging.getLogger("callers")


def new_token() -> str:
    """Return a fresh random caller token (256 bits)."""
    return secrets.token_hex(32)


def fingerprint(token: str) -> str:
    """Return what a service keeps of a caller's token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def parse_callers(text: str) -> dict[str, str]:
    """Return {fingerprint: caller} from ``PF_CALLERS`` ("gateway=<hex>,matchmaking=<hex>").

    Raises:
        ValueError: for an entry that is not ``name=<64 hex digits>``.
    """
    callers: dict[str, str] = {}
    for entry in filter(None, (part.strip() for part in text.split(","))):
        name, _, digest = entry.partition("=")
        if not name or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise ValueError(f"PF_CALLERS entry {entry[:20]!r}… is not name=<sha256 hex>")
        callers[digest] = name
    return callers


def format_callers(tokens: Mapping[str, str]) -> str:
    """Return the ``PF_CALLERS`` value that accepts the callers ``tokens`` names."""
    return ",".join(f"{name}={fingerprint(token)}" for name, token in tokens.items())


def accepted(tokens: Mapping[str, str]) -> dict[str, str]:
    """Return each service's ``PF_CALLERS``, accepting what ``ACCEPTED`` names, from every
    caller's token (``tokens``, by caller name)."""
    return {
        service: format_callers({name: tokens[name] for name in names})
        for service, names in ACCEPTED.items()
    }


class CallerCheck(grpc.aio.ServerInterceptor):
    """Refuses calls from unknown callers, and identities from anyone but the gateway.

    ``reserved`` maps a method prefix to the one caller it is for: that caller may call
    nothing else, and nobody else may call it (matchmaking's door for the bot pools).
    """

    def __init__(self, callers: Mapping[str, str], reserved: Mapping[str, str]) -> None:
        self._callers = dict(callers)
        self._reserved = dict(reserved)

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler | None]],
        details: grpc.HandlerCallDetails,
    ) -> Handler | None:
        handler = await continuation(details)
        if handler is None or details.method.startswith(OPEN_PREFIXES):
            return handler
        metadata = dict(details.invocation_metadata or ())
        caller = self._callers.get(fingerprint(str(metadata.get(TOKEN, ""))))
        if caller is None:
            return _refusing(handler, grpc.StatusCode.UNAUTHENTICATED, "unknown_caller")
        if caller != GATEWAY and any(key in metadata for key in IDENTITY):
            return _refusing(
                handler, grpc.StatusCode.PERMISSION_DENIED, "identity_from_gateway_only"
            )
        reserved_for = next(
            (who for prefix, who in self._reserved.items() if details.method.startswith(prefix)),
            None,
        )
        if caller != reserved_for and (reserved_for or caller in self._reserved.values()):
            return _refusing(handler, grpc.StatusCode.PERMISSION_DENIED, "not_for_this_caller")
        return handler


def interceptors(
    callers_text: str, reserved: Mapping[str, str] | None = None
) -> Sequence[grpc.aio.ServerInterceptor]:
    """Return the server interceptors ``PF_CALLERS`` asks for (none when it is empty);
    ``reserved`` maps a method prefix to the one caller allowed it (:class:`CallerCheck`)."""
    callers = parse_callers(callers_text)
    if not callers:
        log.warning("the gRPC port accepts calls from anyone: PF_CALLERS is not set")
        return []
    return [CallerCheck(callers, reserved or {})]


def _refusing(handler: Handler, code: grpc.StatusCode, reason: str) -> Handler:
    """Return a handler of ``handler``'s kind that refuses every call with ``reason``."""
    message = f"{reason}: this service's port is for the services that call it"

    async def refuse(_request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> None:
        await context.abort(code, message)

    if handler.unary_unary is not None:
        make = grpc.unary_unary_rpc_method_handler
    elif handler.unary_stream is not None:
        make = grpc.unary_stream_rpc_method_handler
    elif handler.stream_unary is not None:
        make = grpc.stream_unary_rpc_method_handler
    else:
        make = grpc.stream_stream_rpc_method_handler
    return make(
        refuse,
        request_deserializer=handler.request_deserializer,
        response_serializer=handler.response_serializer,
    )


class _WithToken:
    """Adds the caller's token to a call's metadata, whatever the kind of call."""

    def __init__(self, token: str) -> None:
        self._token = token

    async def _call(self, continuation: Any, details: Any, request: Any) -> Any:
        metadata = grpc.aio.Metadata(*(details.metadata or ()))
        metadata.add(TOKEN, self._token)
        with_token = grpc.aio.ClientCallDetails(
            details.method, details.timeout, metadata, details.credentials, details.wait_for_ready
        )
        return await continuation(with_token, request)


# One class per kind of call: a channel files each interceptor under the first kind it is
# an instance of, so one object for every kind would never see a server stream. (No
# client-streaming method in the project.)
class _Unary(_WithToken, grpc.aio.UnaryUnaryClientInterceptor):
    async def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        return await self._call(continuation, details, request)


class _ServerStream(_WithToken, grpc.aio.UnaryStreamClientInterceptor):
    async def intercept_unary_stream(self, continuation: Any, details: Any, request: Any) -> Any:
        return await self._call(continuation, details, request)


class _BothStreams(_WithToken, grpc.aio.StreamStreamClientInterceptor):  # reflection's
    async def intercept_stream_stream(self, continuation: Any, details: Any, requests: Any) -> Any:
        return await self._call(continuation, details, requests)


def channel(target: str, token: str, options: Sequence[tuple[str, Any]] = ()) -> grpc.aio.Channel:
    """Return a channel to ``target`` whose every call carries ``token`` ('': none)."""
    kinds = (_Unary, _ServerStream, _BothStreams)
    chosen: list[Any] | None = [kind(token) for kind in kinds] if token else None
    return grpc.aio.insecure_channel(target, options=list(options), interceptors=chosen)
