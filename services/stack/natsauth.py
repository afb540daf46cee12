"""Who may say what on NATS: one user per service, each allowed its own subjects alone.

Nothing on NATS is for a stranger: a process without a user's password is refused at
CONNECT, and a service's user may publish and subscribe only where that service speaks
(docs/security.md). Answers to requests need no publish right of their own
(``allow_responses``), and each user's inboxes have its own prefix, so no service can
read the answers meant for another. ``operator`` is for the tools that read the streams
(replays, the load test's truth, the deployment's checks), never for a service.

``make run`` and the tests' stacks render :func:`authorization` into the nats-server
config they start, with fresh passwords each start (:func:`new_passwords`); the server
reads them from its environment (``$PF_NATS_PASSWORD_<USER>``), each service from its own
``NATS_URL``. Only the operator's URL is written down, in ``var/nats/operator.url``
(0600), for ``tools.replay`` against a running ``make run``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlparse, urlunparse

from services.common.live import LIVE_BUCKET as LIVE
from services.common.live import WATCHERS_BUCKET as WATCHERS
from services.common.placement import INSTANCES_BUCKET as ARBITERS
from services.common.placement import OWNERS_BUCKET as OWNERS
from services.stack.private import write_private
from wire import subjects

RESULTS = subjects.RESULTS_STREAM
LOG = subjects.LOG_STREAM
ACCOUNTS = subjects.ACCOUNTS_STREAM
# Under the data folder (var/, 0700), 0600: the one password make run writes down.
OPERATOR_URL_FILE = "nats/operator.url"


@dataclass(frozen=True, slots=True)
class Permissions:
    """What one user may publish and subscribe to (NATS subject patterns).

    ``answers``: the users whose inboxes this one publishes to, beyond answering once each
    request it received (``allow_responses``), for answers that come as several messages
    (a batch of Submits, a batch of rules calls, each answered as it is decided).
    """

    publish: tuple[str, ...]
    subscribe: tuple[str, ...]
    answers: tuple[str, ...] = ()


def _stream(name: str) -> tuple[str, ...]:
    """Declare a stream (create it if missing, bring its settings up to date) and read
    what it holds."""
    api = "$JS.API"
    return (
        f"{api}.STREAM.CREATE.{name}",
        f"{api}.STREAM.UPDATE.{name}",
        f"{api}.STREAM.INFO.{name}",
        f"{api}.STREAM.MSG.GET.{name}",
        f"{api}.DIRECT.GET.{name}",
        f"{api}.DIRECT.GET.{name}.>",
    )


def _read(name: str) -> tuple[str, ...]:
    """Read what a stream holds, never declare or change it."""
    api = "$JS.API"
    return (
        f"{api}.STREAM.INFO.{name}",
        f"{api}.STREAM.MSG.GET.{name}",
        f"{api}.DIRECT.GET.{name}",
        f"{api}.DIRECT.GET.{name}.>",
    )


def _consumers(stream: str, name: str = "*") -> tuple[str, ...]:
    """Create, read and ack the consumers ``name`` (``*``: any, unnamed ones too) of
    ``stream``."""
    unnamed = (f"$JS.API.CONSUMER.CREATE.{stream}",) if name == "*" else ()
    return (
        *unnamed,
        f"$JS.API.CONSUMER.CREATE.{stream}.{name}",
        f"$JS.API.CONSUMER.CREATE.{stream}.{name}.>",
        f"$JS.API.CONSUMER.DURABLE.CREATE.{stream}.{name}",
        f"$JS.API.CONSUMER.INFO.{stream}.{name}",
        f"$JS.API.CONSUMER.DELETE.{stream}.{name}",
        f"$JS.API.CONSUMER.MSG.NEXT.{stream}.{name}",
        f"$JS.ACK.{stream}.{name}.>",
    )


def _bucket(name: str, write: bool) -> tuple[str, ...]:
    """Open a key-value bucket and read or watch it; with ``write``, change it too."""
    return _stream(f"KV_{name}") + _consumers(f"KV_{name}") + ((f"$KV.{name}.>",) if write else ())


# Every JetStream client asks the account's limits, and answers an ordered consumer's
# flow control.
_JETSTREAM = ("$JS.API.INFO", "$JS.FC.>")
_VIEWS = (subjects.MATCH_SEATS_ALL, subjects.MATCH_PUBLIC_ALL)

USERS: dict[str, Permissions] = {
    "rules": Permissions(
        publish=(),
        subscribe=(
            subjects.RULES_CALLS,
            subjects.rules_calls("*"),
            subjects.RULES_REPLAY,
            subjects.JUDGE,
        ),
        answers=("arbitration",),
    ),
    "arbitration": Permissions(
        publish=(
            subjects.RULES_CALLS,
            subjects.rules_calls("*"),
            subjects.RULES_REPLAY,
            *_VIEWS,
            subjects.match_log("*"),
            subjects.match_commands("*", "*"),
            subjects.RESULTS_FINISHED,
            subjects.RESULTS_VOIDED,
            *_stream(RESULTS),
            *_stream(LOG),
            *_consumers(LOG),
            *_bucket(ARBITERS, write=True),
            *_bucket(OWNERS, write=True),
            *_bucket(LIVE, write=True),
            *_JETSTREAM,
        ),
        subscribe=(
            subjects.MATCH_CREATE,
            subjects.SUBMITS_ANY,
            subjects.submits("*"),
            subjects.PRESENCE,
        ),
        answers=("gateway",),
    ),
    "gateway": Permissions(
        publish=(
            subjects.SUBMITS_ANY,
            subjects.submits("*"),
            subjects.PRESENCE,
            subjects.SESSIONS_ENDED,
            *_bucket(ARBITERS, write=False),
            *_bucket(OWNERS, write=False),
            *_bucket(LIVE, write=False),
            *_bucket(WATCHERS, write=True),
            *_JETSTREAM,
        ),
        subscribe=(*_VIEWS, subjects.SESSIONS_ENDED),
    ),
    # Matchmaking reads the live list for the caps on matches against the computer and
    # on one device (services/matchmaking/playing.py).
    "matchmaking": Permissions(
        publish=(subjects.MATCH_CREATE, *_bucket(LIVE, write=False), *_JETSTREAM),
        subscribe=(),
    ),
    "tournaments": Permissions(
        publish=(
            subjects.MATCH_CREATE,
            *_stream(RESULTS),
            *_consumers(RESULTS, subjects.TOURNAMENTS_CONSUMER),
            *_stream(ACCOUNTS),
            *_consumers(ACCOUNTS, subjects.TOURNAMENTS_CONSUMER),
            *_JETSTREAM,
        ),
        subscribe=(),
    ),
    # Ratings also reads finished logs back, to measure rated Spit matches (fair play).
    "ratings": Permissions(
        publish=(
            *_stream(RESULTS),
            *_consumers(RESULTS, subjects.RATINGS_CONSUMER),
            *_consumers(RESULTS, subjects.FAIRPLAY_CONSUMER),
            *_read(LOG),
            *_consumers(LOG),
            *_stream(ACCOUNTS),
            *_consumers(ACCOUNTS, subjects.RATINGS_CONSUMER),
            *_JETSTREAM,
        ),
        subscribe=(),
    ),
    # The accounts service tells ratings and tournaments of each deleted account.
    "accounts": Permissions(
        publish=(subjects.ACCOUNTS_DELETED, *_stream(ACCOUNTS), *_JETSTREAM),
        subscribe=(),
    ),
    "operator": Permissions(publish=(">",), subscribe=(">",)),
}


def new_passwords() -> dict[str, str]:
    """Return a fresh random password (192 bits) for every user.

    nats-server parses a variable's value as a config value: one starting with a digit is
    read as a number and fails, so each starts with letters and holds only hex digits.
    """
    return {user: "pf" + secrets.token_hex(24) for user in USERS}


def password_variable(user: str) -> str:
    """Return the environment variable nats-server reads ``user``'s password from."""
    return f"PF_NATS_PASSWORD_{user.upper()}"


def authorization() -> str:
    """Return the nats-server ``authorization`` block for every user of ``USERS``."""
    lines = ["authorization {", "  users = ["]
    for user, allowed in USERS.items():
        lines.append(f"    {{user: {user}, password: ${password_variable(user)}, permissions: {{")
        may_publish = (*allowed.publish, *(f"{subjects.inboxes(u)}.>" for u in allowed.answers))
        # An empty allow list would allow everything: nothing is denied everything.
        publish = f"allow: {_list(may_publish)}" if may_publish else 'deny: [">"]'
        lines.append(f"      publish: {{{publish}}}")
        own_inbox = f"{subjects.inboxes(user)}.>"
        lines.append(f"      subscribe: {{allow: {_list((*allowed.subscribe, own_inbox))}}}")
        lines.append("      allow_responses: true")
        lines.append("    }}")
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def _list(patterns: tuple[str, ...]) -> str:
    return "[" + ", ".join(f'"{pattern}"' for pattern in patterns) + "]"


def save_operator_url(data_dir: Path, url: str) -> Path:
    """Keep the operator's URL (with its password) in ``data_dir``, readable by its owner
    alone, for the tools that read the streams of a running ``make run``."""
    path = data_dir / OPERATOR_URL_FILE
    write_private(path, url.encode())
    return path


def operator_url(data_dir: Path = Path("var")) -> str | None:
    """Return the operator's URL a running ``make run`` saved in ``data_dir``, if any."""
    try:
        return (data_dir / OPERATOR_URL_FILE).read_text().strip() or None
    except OSError:
        return None


def with_user(url: str, user: str, password: str) -> str:
    """Return ``url`` (one server or a comma-separated list) with ``user``'s credentials."""
    parts = []
    for part in url.split(","):
        parsed = urlparse(part.strip())
        netloc = f"{quote(user)}:{quote(password)}@{parsed.hostname}:{parsed.port}"
        parts.append(urlunparse(parsed._replace(netloc=netloc)))
    return ",".join(parts)
