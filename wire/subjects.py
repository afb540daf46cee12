"""Every NATS subject, queue group, stream and consumer name of the arena, in one place.

docs/nats-subjects.md is the table of the same names; keep the two together. How the
services declare the streams is theirs (services/common/jetstream_config.py).
"""

from __future__ import annotations

import re

# Match ids are url-safe tokens, each one subject token: anything else could widen a
# subscription (`*`, `>`), split a subject (`.`) or not be a subject at all (` `, ``).
_MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def is_match_id(text: str) -> bool:
    """Return whether ``text`` can be a match id (and so a token of a subject)."""
    return _MATCH_ID.fullmatch(text) is not None


# Request/reply: matchmaking asks an arbitration instance to open a match (MatchCreated →
# MatchOpened). Arbitration instances answer as one queue group.
MATCH_CREATE = "pf.match.create"
ARBITRATION_QUEUE = "arbitration"

# The hot path's request/reply hops, one message per batch of calls
# (see services/common/batching.py).
# The arbitration's rules calls (HeldCalls → HeldAnswers): a new match, or one whose holder
# is unknown or gone, on the queue subject (any rules instance answers); the rest go to
# the instance that holds the match.
RULES_CALLS = "pf.rules.calls"
RULES_QUEUE = "rules"


def rules_calls(instance: str) -> str:
    """Return the subject of the calls for the matches the rules instance ``instance`` holds."""
    return f"pf.rules.{instance}.calls"


# Request/reply: the arbitration asks any rules instance (queue RULES_QUEUE) to rebuild a
# finished match's boards from its log (ReplayViewsRequest → ReplayViews), for GetReplay.
RULES_REPLAY = "pf.rules.replay"


# The gateway's Submits for one arbitration instance (Submits → SubmitAnswers); those for a
# match whose owner the gateway does not know go to the queue subject, any instance answers.
SUBMITS_ANY = "pf.arbitration.submit"
# Every gateway's SeatsPresent (the seats with a stream open on it), to every instance.
PRESENCE = "pf.arbitration.presence"
# Accounts' sessions just ended (signed out, deleted, a refresh token reused): the gateway
# that learnt it tells every gateway (SessionsEnded), which refuses their tokens and closes
# their streams and play sockets.
SESSIONS_ENDED = "pf.sessions.ended"


def submits(instance: str) -> str:
    """Return the subject of the Submits for the arbitration instance ``instance``."""
    return f"pf.arbitration.{instance}.submit"


# Results: a JetStream stream, deduplicated by Nats-Msg-Id = the match id.
RESULTS_STREAM = "PF_RESULTS"
RESULTS_FINISHED = "pf.results.finished"
RESULTS_VOIDED = "pf.results.voided"
RATINGS_CONSUMER = "ratings"
# The ratings service's fair-play reader: it measures each rated Spit match's log.
FAIRPLAY_CONSUMER = "fairplay"
TOURNAMENTS_CONSUMER = "tournaments"

# Deleted accounts (AccountDeleted): a JetStream stream, deduplicated by Nats-Msg-Id = the
# player id. The accounts service publishes each deletion until the stream holds it;
# ratings and tournaments read it with durable consumers named as on the results stream,
# and show the name as "deleted player" from then on.
ACCOUNTS_STREAM = "PF_ACCOUNTS"
ACCOUNTS_DELETED = "pf.accounts.deleted"


def match_seats(match_id: str) -> str:
    """Return the subject of the seats' updates of a match (a ``SeatUpdates``: each seat's,
    in one message)."""
    return f"pf.match.{match_id}.seats"


def match_public(match_id: str) -> str:
    """Return the subject of the spectators' updates of a match."""
    return f"pf.match.{match_id}.public"


MATCH_SEATS_ALL = "pf.match.*.seats"  # every seat's updates of every match
MATCH_PUBLIC_ALL = "pf.match.*.public"  # every match's spectators' updates

# The arbitration log: one JetStream stream for every match, one subject per match.
LOG_STREAM = "PF_MATCH_LOG"


def match_log(match_id: str) -> str:
    """Return the subject of one match's arbitration log entries."""
    return f"pf.log.{match_id}"


# A player's command stored before it is judged (a COMMAND entry of the match's log), on a
# subject that names the rules instance holding the match. The log stream republishes each
# one, once stored, on the JUDGE subjects: the holder subscribes to its own, and is fed
# only stored commands of the matches it holds. Its answer goes to the reply subject the
# command names (the storing arbitration instance's inbox).
LOG_COMMANDS = "pf.cmd.>"
JUDGE = "pf.judge.>"


def match_commands(holder: str, match_id: str) -> str:
    """Return the subject of ``match_id``'s stored commands for rules instance ``holder``."""
    return f"pf.cmd.{holder}.{match_id}"


def match_commands_any(match_id: str) -> str:
    """Return the filter of ``match_id``'s stored commands, whichever instance held it."""
    return f"pf.cmd.*.{match_id}"


def judge(holder: str) -> str:
    """Return the subject on which rules instance ``holder`` is fed its stored commands."""
    return f"pf.judge.{holder}.*"


def inboxes(user: str) -> str:
    """Return the prefix of the reply inboxes of NATS user ``user`` ('': no user).

    Each user subscribes under its own prefix alone, so no service can read the answers
    meant for another (services/stack/natsauth.py).
    """
    return f"_INBOX_{user}" if user else "_INBOX"
