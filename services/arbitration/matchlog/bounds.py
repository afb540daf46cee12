"""What a match's log keeps, so that no player grows it without end (docs/arbitration-log.md,
"Bounds"): a seat's refused and accepted commands up to a count each, a command up to a
size, a match's entries up to the stream's limit for one match.

A refusal changes nothing, so one the log leaves out changes no replay: it is answered,
kept in memory for its retries, and counted (the end entry's ``refusals_not_logged``).
Lost races are what a dispute turns on, so a seat's races are kept longer than its other
refusals. A command that came too late is always kept: it comes with the flag that ends
the match, so a match has one at most.
"""

from __future__ import annotations

from services.arbitration.refusals import Reason

REFUSALS_LOGGED_PER_SEAT = 500  # a seat's refusals the log keeps, whatever the reason
RACES_LOGGED_PER_SEAT = 500  # past those, the seat's lost races: this many more
# A seat's accepted commands in one match; past them the seat may only resign. Between
# two hard computer players one seat made at most 3,168 in a Bid match (1,000 seeds; 3
# made over 3,000) and 400 in a Spit match.
COMMANDS_ACCEPTED_PER_SEAT = 8_000
# A command's encoding, at most: the largest either game makes is 52 bytes (a Bid play with
# its texts); the edge lets 64 KiB through, and an entry keeps its command whole.
MAX_COMMAND_BYTES = 64
# Entries a match may still make once its log is found full: its end, and what the item
# being judged adds (a fault, a flag, the refusal that came too late).
ENTRIES_RESERVE = 20
MIN_ENTRIES_PER_MATCH = 100  # PF_LOG_ENTRIES_PER_MATCH, at least


def keeps_refusal(stored: int, reason: str, race: bool) -> bool:
    """Return whether the log stores a seat's refusal, ``stored`` of the seat's being stored."""
    if reason == Reason.TOO_LATE.value:
        return True
    return stored < REFUSALS_LOGGED_PER_SEAT + (RACES_LOGGED_PER_SEAT if race else 0)


def takes_commands(accepted: int) -> bool:
    """Return whether a seat with ``accepted`` commands in the log may still make more."""
    return accepted < COMMANDS_ACCEPTED_PER_SEAT


def is_full(length: int, entries_per_match: int) -> bool:
    """Return whether a log of ``length`` entries has room for nothing but its match's end."""
    return length >= entries_per_match - ENTRIES_RESERVE
