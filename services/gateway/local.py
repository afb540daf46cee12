"""The public methods the gateway answers itself: SignIn, and Watch from NATS.

They run on a small in-process gRPC server, so the gRPC-web translator forwards to them
exactly as it forwards to the other services.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import grpc
from nats.aio.client import Client as NATS

from photofinish.arbitration.v1 import arbitration_pb2, arbitration_pb2_grpc
from photofinish.client.v1 import arena_pb2
from services.common.identity import PLAYER_ID, player_id_of
from services.common.rejection import Rejection, from_rpc_error
from services.gateway.arbiters import ArbitrationChannels
from services.gateway.tokens import issue
from wire import subjects

GET_UPDATE_TIMEOUT_S = 3.0


def is_newer(update: arbitration_pb2.MatchUpdate, last_seq: int) -> bool:
    """Return whether a published update is news after the one at ``last_seq``.

    A race notice repeats the sequence number of the step it follows.
    """
    return update.seq > last_seq or (update.seq == last_seq and update.HasField("race"))


class LocalArena:
    """SignIn issues guest tokens; Watch streams one seat's updates, its own only."""

    def __init__(self, token_key: bytes, nc: NATS, arbitration: ArbitrationChannels) -> None:
        self._key = token_key
        self._nc = nc
        self._arbitration = arbitration

    async def SignIn(
        self, request: arena_pb2.SignInRequest, context: grpc.aio.ServicerContext[object, object]
    ) -> arena_pb2.SignInReply:
        try:
            token, identity = issue(self._key, request.display_name, int(time.time()))
        except ValueError as error:
            await Rejection(grpc.StatusCode.INVALID_ARGUMENT, "bad_name", str(error)).abort(context)
            raise
        return arena_pb2.SignInReply(
            token=token,
            player_id=identity.player_id,
            display_name=identity.name,
            expires_at_unix=identity.expires_at,
        )

    async def Watch(
        self, request: arena_pb2.WatchRequest, context: grpc.aio.ServicerContext[object, object]
    ) -> AsyncIterator[bytes]:
        """Stream the seat's updates as published: each is read for its number and status
        only, and passed on in the bytes it came in (never encoded again)."""
        try:
            player = player_id_of(context)
            # Subscribe before asking for the latest update, so nothing falls in between.
            subscription = await self._nc.subscribe(
                subjects.match_view(request.match_id, request.seat)
            )
            try:
                first = await self._latest(request, player)
            except Rejection:
                await subscription.unsubscribe()
                raise
        except Rejection as rejection:
            await rejection.abort(context)
            return
        try:
            yield first.SerializeToString()
            last_seq = first.seq
            if first.status != arbitration_pb2.STATUS_LIVE:
                return
            async for message in subscription.messages:
                update = arbitration_pb2.MatchUpdate.FromString(message.data)
                if not is_newer(update, last_seq):
                    continue
                yield message.data
                last_seq = update.seq
                if update.status != arbitration_pb2.STATUS_LIVE:
                    return
        finally:
            await subscription.unsubscribe()

    async def _latest(
        self, request: arena_pb2.WatchRequest, player: str
    ) -> arbitration_pb2.MatchUpdate:
        channel = await self._arbitration.for_match(request.match_id)
        try:
            return await arbitration_pb2_grpc.ArbitrationStub(channel).GetUpdate(
                arbitration_pb2.GetUpdateRequest(match_id=request.match_id, seat=request.seat),
                metadata=((PLAYER_ID, player),),
                timeout=GET_UPDATE_TIMEOUT_S,
            )
        except grpc.aio.AioRpcError as error:
            raise from_rpc_error(error) from None


def add_local_arena(arena: LocalArena, server: grpc.aio.Server) -> None:
    """Serve the gateway's own two methods of the public Arena service on ``server``."""
    handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {
        "SignIn": grpc.unary_unary_rpc_method_handler(
            arena.SignIn,
            request_deserializer=arena_pb2.SignInRequest.FromString,
            response_serializer=arena_pb2.SignInReply.SerializeToString,
        ),
        "Watch": grpc.unary_stream_rpc_method_handler(
            arena.Watch,
            request_deserializer=arena_pb2.WatchRequest.FromString,
            response_serializer=bytes,  # Watch yields MatchUpdate bytes as published
        ),
    }
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler("photofinish.client.v1.Arena", handlers),)
    )
