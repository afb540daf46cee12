"""Hostile requests, one at a time: what a client that means harm sends to the gateway.

Each class draws requests at random (from a seeded generator) around one weakness:
frames, lengths and sizes, random and wrong-type protobuf, paths, tokens, seats,
``client_seq``, base64, content types, commands, accounts. None may change a match, and every
answer must be a clean refusal (``answers.py``).
"""

from __future__ import annotations

import base64
import random
import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from google.protobuf.message import Message

from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.client.v1 import account_pb2, arena_pb2
from photofinish.game.v1 import bid_pb2, game_pb2, spit_pb2
from photofinish.ratings.v1 import ratings_pb2

ARENA = "/photofinish.client.v1.Arena"
PROTO = "application/grpc-web+proto"
TEXT = "application/grpc-web-text"
METHODS = (
    "SignIn",
    "Watch",
    "Submit",
    "Queue",
    "CancelQueue",
    "CreateChallenge",
    "AcceptChallenge",
    "PlayComputer",
    "PlayHotSeat",
    "Rematch",
    "OfferRematch",
    "GetLadder",
    "GetHistory",
    "GetRating",
    "GetMatchLog",
    "ListTournaments",
    "GetTournament",
    "WatchTournament",
)
FORGED_CLAIMS = b'{"p":"admin","n":"admin","e":9999999999}'
# Methods a probe may call with a well-formed request and no effect: only reads.
READS = ("GetLadder", "GetHistory", "GetRating", "ListTournaments", "GetMatchLog")


@dataclass(frozen=True, slots=True)
class Target:
    """The match under attack and the tokens the attacker holds."""

    match_id: str
    seats: Mapping[int, str]  # seat → the seated player's token (refusals only are sent)
    strangers: tuple[str, ...]  # tokens of players who are not in the match
    last_seq: int  # each seat's highest client_seq so far (none are used up by probes)


@dataclass(frozen=True, slots=True)
class Probe:
    kind: str
    path: str
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict)
    method: str = "POST"


def frame(payload: bytes, flag: int = 0) -> bytes:
    return struct.pack(">BI", flag, len(payload)) + payload


def grpc_web(token: str = "", content_type: str = PROTO) -> dict[str, str]:
    headers = {"content-type": content_type, "x-grpc-web": "1"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    return headers


def _token(rng: random.Random, target: Target) -> str:
    return rng.choice(target.strangers)


def _any_method(rng: random.Random) -> str:
    return f"{ARENA}/{rng.choice(METHODS)}"


def _junk(rng: random.Random, most: int = 64) -> bytes:
    return rng.randbytes(rng.randint(0, most))


def frames(rng: random.Random, target: Target) -> Probe:
    """Bodies that are not one well-formed frame."""
    payload = _junk(rng)
    body = rng.choice(
        [
            payload,  # no frame at all
            frame(payload)[: rng.randint(1, 4)],  # a header cut short
            struct.pack(">BI", 0, len(payload) + rng.randint(1, 1000)) + payload,  # too long
            frame(payload) + _junk(rng, 8)[:1] + b"\x00",  # trailing bytes
            frame(payload, rng.choice([0x01, 0x02, 0x40, 0x7F, 0x80, 0x81, 0xFF])),  # flags
            frame(payload) + frame(payload),  # two messages to a unary method
            b"",  # no body
        ]
    )
    return Probe("frames", _any_method(rng), body, grpc_web(_token(rng, target)))


def sizes(rng: random.Random, target: Target) -> Probe:
    """Lengths and bodies past the message limit (64 KiB)."""
    huge = rng.choice([0xFFFFFFFF, 0x7FFFFFFF, 64 * 1024 + 1, 10**8])
    body = rng.choice(
        [
            struct.pack(">BI", 0, huge) + _junk(rng),  # a length that lies, before the body
            frame(rng.randbytes(64 * 1024 + rng.randint(1, 4096))),  # a real one, too large
        ]
    )
    return Probe("sizes", _any_method(rng), body, grpc_web(_token(rng, target)))


def protobuf(rng: random.Random, target: Target) -> Probe:
    """Random bytes, and other methods' messages, as the request message."""
    others: list[Message] = [
        arbitration_pb2.SubmitRequest(match_id=target.match_id, seat=rng.randint(-3, 3)),
        arena_pb2.WatchRequest(match_id="x" * rng.randint(0, 300), seat=rng.randint(-3, 3)),
        ratings_pb2.GetLadderRequest(
            game=game_pb2.Game.ValueType(rng.randint(-5, 99)), limit=rng.randint(-5, 10**6)
        ),
        arena_pb2.SignInRequest(display_name=rng.choice(["", " ", "\u0000", "x" * 400])),
    ]
    payload = rng.choice([_junk(rng, 200), rng.choice(others).SerializeToString()])
    # Only reads: random bytes could decode to a real request that queues, challenges or
    # opens a stream (a probe must change nothing and end).
    method = rng.choice(READS)
    token = _token(rng, target)
    return Probe("protobuf", f"{ARENA}/{method}", frame(payload), grpc_web(token))


def paths(rng: random.Random, target: Target) -> Probe:
    """Methods and services that do not exist, and paths that are not methods."""
    path = rng.choice(
        [
            f"{ARENA}/{rng.choice(['', 'Nope', 'submit', 'Submit/', 'Submit/x'])}",
            "/photofinish.arbitration.v1.Arbitration/Submit",  # internal: never public
            "/photofinish.nope.v1.Nope/Call",
            "/" + "a" * rng.randint(1, 3000),
            "/../../etc/passwd",
            "/%2e%2e/%2e%2e/etc/passwd",
            f"{ARENA}/%00",
            "/grpc.health.v1.Health/Check",
        ]
    )
    method = rng.choice(["POST", "POST", "GET", "PUT", "DELETE", "OPTIONS"])
    return Probe("paths", path, frame(b""), grpc_web(_token(rng, target)), method)


def tokens(rng: random.Random, target: Target) -> Probe:
    """Missing, malformed, forged and spoofed identities."""
    real = _token(rng, target)
    head, _, signature = real.rpartition(".")
    bearer = rng.choice(
        [
            "",
            "x",
            "Bearer",
            "Bearer ",
            f"Bearer {real[:-3]}",  # cut short
            f"Bearer {head}.{base64.urlsafe_b64encode(rng.randbytes(32)).decode()}",  # forged
            f"Bearer {base64.urlsafe_b64encode(FORGED_CLAIMS).decode()}.{signature}",
            f"Basic {base64.b64encode(b'admin:admin').decode()}",
            "Bearer " + "A" * 5000,
        ]
    )
    headers = grpc_web()
    if bearer:
        headers["authorization"] = bearer
    if rng.random() < 0.5:  # an identity of the client's own making: never believed
        headers["x-pf-player-id"] = rng.choice(["admin", "g_" + "x" * 16, ""])
    method = rng.choice(["Submit", "Watch", "GetMatchLog", "PlayHotSeat", "GetRating"])
    request = arbitration_pb2.SubmitRequest(match_id=target.match_id, seat=0, client_seq=1)
    return Probe("tokens", f"{ARENA}/{method}", frame(request.SerializeToString()), headers)


def _refusable_command(rng: random.Random) -> game_pb2.Command:
    """A command refused at any point of a Bid match at its opening gate (never Resign,
    Claim or Ready, which the seat could mean)."""
    return rng.choice(
        [
            game_pb2.Command(),  # no command at all
            game_pb2.Command(spit=spit_pb2.SpitCommand(ready=spit_pb2.SpitReady())),  # game
            game_pb2.Command(
                spit=spit_pb2.SpitCommand(
                    play=spit_pb2.SpitPlay(stock=rng.randint(-9, 9), pile=rng.randint(-9, 9))
                )
            ),
            game_pb2.Command(
                bid=bid_pb2.BidCommand(bid=bid_pb2.BidOffer(amount=rng.randint(-9, 999)))
            ),
            game_pb2.Command(bid=bid_pb2.BidCommand(draw=bid_pb2.BidDraw())),
        ]
    )


def seats(rng: random.Random, target: Target) -> Probe:
    """Commands for seats that are not the sender's, or that do not exist."""
    seat = rng.choice([0, 1, -1, 2, 99, -(2**31), 2**31 - 1])
    request = arbitration_pb2.SubmitRequest(
        match_id=rng.choice([target.match_id, target.match_id + "x", "nope"]),
        seat=seat,
        client_seq=rng.randint(1, 2**20),
        command=_refusable_command(rng),
    )
    method = rng.choice(["Submit", "Watch"])
    if method == "Watch":
        seat = 2 if seat == -1 else seat  # a spectator may watch: that stream never ends
        body = arena_pb2.WatchRequest(match_id=request.match_id, seat=seat).SerializeToString()
    else:
        body = request.SerializeToString()
    return Probe("seats", f"{ARENA}/{method}", frame(body), grpc_web(_token(rng, target)))


def client_seqs(rng: random.Random, target: Target) -> Probe:
    """A seated player's own commands with sequence numbers out of bounds, and refusals."""
    seat = rng.choice(sorted(target.seats))
    client_seq = rng.choice([0, 2**64 - 1, 2**63, target.last_seq + 2**20 + 1, 2**32])
    request = arbitration_pb2.SubmitRequest(
        match_id=target.match_id, seat=seat, client_seq=client_seq, command=_refusable_command(rng)
    )
    headers = grpc_web(target.seats[seat])
    return Probe("client_seq", f"{ARENA}/Submit", frame(request.SerializeToString()), headers)


def text_bodies(rng: random.Random, target: Target) -> Probe:
    """grpc-web-text bodies that are not base64 of a frame."""
    # Decoded after all (padding may be left off), the request is still refused: no seat 5.
    request = arena_pb2.WatchRequest(match_id=target.match_id, seat=5).SerializeToString()
    good = base64.b64encode(frame(request)).decode()
    body = rng.choice(
        [
            "!!!" + good,
            good[:-1],  # padding gone
            good + "=" * rng.randint(1, 3) + good,  # padding in the middle
            base64.b64encode(_junk(rng)).decode(),
            "\u00e9\u00e9\u00e9\u00e9",
            " " * rng.randint(1, 9),
        ]
    ).encode()
    method = rng.choice(["Watch", "GetLadder", "Submit"])
    headers = grpc_web(_token(rng, target), TEXT)
    return Probe("base64", f"{ARENA}/{method}", body, headers)


def content_types(rng: random.Random, target: Target) -> Probe:
    """Requests that are not gRPC-web at all, or ask for an encoding that is not served."""
    request = ratings_pb2.GetLadderRequest(game=game_pb2.GAME_BID, limit=5)
    headers = grpc_web(_token(rng, target))
    choice = rng.randrange(4)
    if choice == 0:
        headers["content-type"] = rng.choice(
            ["text/plain", "application/json", "application/grpc", "application/grpc-web+json", ""]
        )
    elif choice == 1:
        headers["grpc-encoding"] = rng.choice(["gzip", "br", "snappy", "x" * 100])
    elif choice == 2:
        headers["grpc-timeout"] = rng.choice(["-1S", "99999999999H", "abc", "1x", ""])
    else:
        headers[rng.choice(["grpc-status", "te", "x-grpc-web", "connection"])] = _junk(rng, 8).hex()
    return Probe("content_types", f"{ARENA}/GetLadder", frame(request.SerializeToString()), headers)


# Usernames and passwords that break the accounts' rules: no account can come of them.
BAD_NAMES = (
    "",
    "ab",
    "x" * 21,
    "n" * 5000,
    "Ann\u202eevil",  # a bidi override
    "An\u200bn",  # a zero-width space
    "Ann\x00",
    "Ann Lee",
    "\U0001f600\U0001f600\U0001f600",
    "__ann",
)
BAD_PASSWORDS = ("", "short", "password", "12345678", "p" * 300)


def _forged_credential(rng: random.Random) -> str:
    """A passkey answer that cannot check out: junk, or the right shape with junk inside."""
    junk = base64.urlsafe_b64encode(_junk(rng, 48)).decode().rstrip("=")
    return rng.choice(
        [
            "",
            "{",
            "[]",
            "null",
            '{"id": "' + junk + '", "rawId": "' + junk + '", "type": "public-key", '
            '"response": {"clientDataJSON": "'
            + junk
            + '", "authenticatorData": "'
            + junk
            + '", "signature": "'
            + junk
            + '"}}',
            '{"id": 1, "response": {"attestationObject": "' + junk + '"}}',
            "x" * 20_000,
        ]
    )


def accounts(rng: random.Random, target: Target) -> Probe:
    """Sign-ups, sign-ins, refreshes and passkeys that must each be refused: names and
    passwords against the rules, forged refresh tokens and passkey answers, unknown
    challenges, and an account's methods with a guest's token."""
    guest = _token(rng, target)
    choice = rng.randrange(6)
    token = ""
    request: Message
    if choice == 0:
        name, password = rng.choice(
            [(rng.choice(BAD_NAMES), "a perfectly long passphrase"), ("Valid_name", "")]
            + [("Valid_name", p) for p in BAD_PASSWORDS]
        )
        method, request = "SignUp", account_pb2.SignUpRequest(username=name, password=password)
    elif choice == 1:
        method = "SignInAccount"
        request = account_pb2.AccountSignInRequest(
            username=rng.choice(BAD_NAMES), password=rng.choice(BAD_PASSWORDS)
        )
    elif choice == 2:
        method = "RefreshSession"
        request = account_pb2.RefreshSessionRequest(
            refresh_token=rng.choice(["", "x", guest, "A" * 3000, _junk(rng).hex()])
        )
    elif choice == 3:
        method = "PasskeySignIn"
        request = account_pb2.PasskeySignInRequest(
            challenge_id=rng.choice(["", "c_" + "x" * 22, "x" * 500, "\u202e"]),
            credential_json=_forged_credential(rng),
        )
    elif choice == 4:
        method, token = "AddPasskey", guest  # a guest has no account to add a passkey to
        request = account_pb2.AddPasskeyRequest(
            challenge_id="c_x", credential_json=_forged_credential(rng)
        )
    else:
        method, token = rng.choice(["DeleteAccount", "SignOut", "ListDevices"]), guest
        request = account_pb2.DeleteAccountRequest(password=rng.choice(BAD_PASSWORDS))
    body = frame(request.SerializeToString())
    return Probe("accounts", f"{ARENA}/{method}", body, grpc_web(token))


CLASSES: tuple[Callable[[random.Random, Target], Probe], ...] = (
    frames,
    sizes,
    protobuf,
    paths,
    tokens,
    seats,
    client_seqs,
    text_bodies,
    content_types,
    accounts,
)
