"""The public API's methods and the backend that serves each one."""

from __future__ import annotations

from google.protobuf import message_factory

from photofinish.client.v1 import arena_pb2
from services.gateway.grpcweb import MethodKind, Route

ARENA = "/photofinish.client.v1.Arena"
SIGN_IN = f"{ARENA}/SignIn"
# The methods that sign in take no bearer token; SignUp takes a guest's when one is sent.
NO_TOKEN = frozenset(
    {
        SIGN_IN,
        f"{ARENA}/SignInAccount",
        f"{ARENA}/RefreshSession",
        f"{ARENA}/BeginPasskeySignIn",
        f"{ARENA}/PasskeySignIn",
    }
)
TOKEN_IF_SENT = frozenset({f"{ARENA}/SignUp"})
ACCOUNT_METHODS = (
    "SignUp",
    "SignInAccount",
    "RefreshSession",
    "ListDevices",
    "SignOut",
    "DeleteAccount",
)
PASSKEY_METHODS = (
    "BeginAddPasskey",
    "AddPasskey",
    "ListPasskeys",
    "RemovePasskey",
    "BeginPasskeySignIn",
    "PasskeySignIn",
)

_ARBITRATION = "/photofinish.arbitration.v1.Arbitration"
_MATCHMAKING = "/photofinish.matchmaking.v1.Matchmaking"
_RATINGS = "/photofinish.ratings.v1.Ratings"
_TOURNAMENTS = "/photofinish.tournaments.v1.Tournaments"

# public method → (kind, backend, backend method)
_TABLE: dict[str, tuple[MethodKind, str, str]] = {
    # Answered in the gateway's own process (services/gateway/own_methods.py,
    # live_matches.py); Submit goes on to the match's arbitration instance over NATS.
    "SignIn": (MethodKind.UNARY, "gateway", f"{ARENA}/SignIn"),
    # Accounts: the gateway asks the accounts service and signs the tokens itself
    # (services/gateway/accounts.py).
    **{
        name: (MethodKind.UNARY, "gateway", f"{ARENA}/{name}")
        for name in ACCOUNT_METHODS + PASSKEY_METHODS
    },
    "Watch": (MethodKind.SERVER_STREAMING, "gateway", f"{ARENA}/Watch"),
    "Submit": (MethodKind.UNARY, "gateway", f"{ARENA}/Submit"),
    "ListLiveMatches": (MethodKind.UNARY, "gateway", f"{ARENA}/ListLiveMatches"),
    "Queue": (MethodKind.SERVER_STREAMING, "matchmaking", f"{_MATCHMAKING}/Queue"),
    "CancelQueue": (MethodKind.UNARY, "matchmaking", f"{_MATCHMAKING}/CancelQueue"),
    "CreateChallenge": (
        MethodKind.SERVER_STREAMING,
        "matchmaking",
        f"{_MATCHMAKING}/CreateChallenge",
    ),
    "AcceptChallenge": (MethodKind.UNARY, "matchmaking", f"{_MATCHMAKING}/AcceptChallenge"),
    "PlayComputer": (MethodKind.UNARY, "matchmaking", f"{_MATCHMAKING}/PlayComputer"),
    "PlayHotSeat": (MethodKind.UNARY, "matchmaking", f"{_MATCHMAKING}/PlayHotSeat"),
    "Rematch": (MethodKind.SERVER_STREAMING, "matchmaking", f"{_MATCHMAKING}/Rematch"),
    "OfferRematch": (MethodKind.UNARY, "matchmaking", f"{_MATCHMAKING}/OfferRematch"),
    "GetLadder": (MethodKind.UNARY, "ratings", f"{_RATINGS}/GetLadder"),
    "GetHistory": (MethodKind.UNARY, "ratings", f"{_RATINGS}/GetHistory"),
    "GetRating": (MethodKind.UNARY, "ratings", f"{_RATINGS}/GetRating"),
    "GetProfile": (MethodKind.UNARY, "ratings", f"{_RATINGS}/GetProfile"),
    **{
        name: (MethodKind.UNARY, "ratings", f"{_RATINGS}/{name}")
        for name in (
            "ReportOpponent",
            "GetFairPlayQueue",
            "GetFairPlayCase",
            "SettleFlag",
            "GetMatchReactions",
        )
    },
    "GetMatchLog": (MethodKind.UNARY, "arbitration", f"{_ARBITRATION}/GetMatchLog"),
    "GetReplay": (MethodKind.UNARY, "arbitration", f"{_ARBITRATION}/GetReplay"),
    **{
        name: (MethodKind.UNARY, "tournaments", f"{_TOURNAMENTS}/{name}")
        for name in (
            "CreateTournament",
            "ListTournaments",
            "JoinTournament",
            "WithdrawTournament",
            "GetTournament",
            "GetPlayerTournaments",
        )
    },
    "WatchTournament": (
        MethodKind.SERVER_STREAMING,
        "tournaments",
        f"{_TOURNAMENTS}/WatchTournament",
    ),
}


def public_routes() -> dict[str, Route]:
    """Return the gRPC-web allow-list: every public method, routed to its backend.

    Each route knows its request type (from the Arena service's descriptor), so a body
    that is not that message is refused at the edge.
    """
    methods = arena_pb2.DESCRIPTOR.services_by_name["Arena"].methods_by_name
    return {
        f"{ARENA}/{name}": Route(
            kind, backend, target, message_factory.GetMessageClass(methods[name].input_type)
        )
        for name, (kind, backend, target) in _TABLE.items()
    }
