"""Which arbitration instance to call for a match: the one recorded as its owner.

With one instance every call could go to the configured address; with several, each
match lives on the instance that opened or adopted it (services/common/placement.py), and a
call about it must reach that one. Unknown matches go to the configured address, which
answers for them as any instance would (not found, or a finished match's log).
"""

from __future__ import annotations

import logging

import grpc
import nats.errors
from google.protobuf.message import Message

from photofinish.arbitration.v1 import arbitration_pb2, arbitration_pb2_grpc
from services.common import callers
from services.common.identity import PLAYER_ID
from services.common.placement import Directory
from services.common.rejection import from_rpc_error
from services.gateway.grpcweb.routes import Resolver

log = logging.getLogger(__name__)

GET_UPDATE_TIMEOUT_S = 3.0


def by_owner(directory: Directory) -> Resolver:
    """Return the gRPC-web resolver for arbitration calls: by the request's match_id."""

    async def resolve(request: Message) -> str | None:
        match_id = getattr(request, "match_id", "")
        return await _address(directory, match_id)

    return resolve


async def _address(directory: Directory, match_id: str) -> str | None:
    if not match_id:
        return None
    try:
        return await directory.address_of(match_id)
    except nats.errors.Error as error:  # NATS trouble: the default instance answers
        log.warning("owner lookup failed", extra={"fields": {"why": repr(error)}})
        return None


class ArbitrationChannels:
    """Channels to the arbitration instances, for the calls the gateway makes itself."""

    def __init__(self, default_addr: str, directory: Directory, caller_token: str = "") -> None:
        self._default = callers.channel(default_addr, caller_token)
        self._caller_token = caller_token
        self._directory = directory
        self._by_address: dict[str, grpc.aio.Channel] = {}

    async def for_match(self, match_id: str) -> grpc.aio.Channel:
        """Return a channel to the instance that runs ``match_id``."""
        address = await _address(self._directory, match_id)
        if address is None:
            return self._default
        if address not in self._by_address:
            self._by_address[address] = callers.channel(address, self._caller_token)
        return self._by_address[address]

    async def latest(self, match_id: str, seat: int, player_id: str) -> arbitration_pb2.MatchUpdate:
        """Return the match's latest update for ``seat`` as ``player_id`` may see it (a
        spectator's call also renews the match's watch: services/common/watching.py).

        Raises:
            Rejection: the arbitration's refusal (not your seat, no such match, ...).
        """
        channel = await self.for_match(match_id)
        try:
            return await arbitration_pb2_grpc.ArbitrationStub(channel).GetUpdate(
                arbitration_pb2.GetUpdateRequest(match_id=match_id, seat=seat),
                metadata=((PLAYER_ID, player_id),),
                timeout=GET_UPDATE_TIMEOUT_S,
            )
        except grpc.aio.AioRpcError as error:
            raise from_rpc_error(error) from None

    async def close(self) -> None:
        for channel in [self._default, *self._by_address.values()]:
            await channel.close()
