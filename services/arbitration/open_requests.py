"""Opening matches on request: matchmaking and tournaments ask over NATS."""

from __future__ import annotations

from nats.aio.msg import Msg

from photofinish.events.v1 import events_pb2
from services.arbitration.matches import Matches
from services.common.rejection import Rejection


async def answer_open_request(matches: Matches, msg: Msg) -> None:
    """Answer a NATS request to open a match (matchmaking's, tournaments')."""
    created = events_pb2.MatchCreated()
    reply = events_pb2.MatchOpened(instance=matches.instance)
    try:
        created.ParseFromString(msg.data)
        reply.match_id = created.match_id
        await matches.open(created)
    except Rejection as rejection:
        reply.error = f"{rejection.reason}: {rejection.message}"
    except ValueError as error:  # DecodeError is a ValueError
        reply.error = f"malformed MatchCreated: {error}"
    await msg.respond(reply.SerializeToString())
