"""The headers of a COMMAND entry, what the rules need to judge a stored command.

The arbitration stores a player's command in the match's log before it is judged; the log
stream feeds it, once stored, to the rules instance holding the match (``wire/subjects.py``,
``judge``). The entry itself is what the log keeps; these headers, stored beside it, say
how to apply it and where the answer goes. Both sides read the names from here.
"""

from __future__ import annotations

# Where the answer goes: a reply subject of the storing arbitration instance's inbox (the
# rules may publish only to the arbitration's inboxes, whatever a header says).
REPLY = "Pf-Reply"
SPECTATORS = "Pf-Spectators"  # present: somebody watches, so the public view is made too
# Present: apply it only if it resigns (a shared device waits to change hands).
RESIGNATION_ONLY = "Pf-Resignation-Only"
