"""The match log: every decision the arbitration made, with its stamps (docs/arbitration-log.md).

``entries`` builds each entry from a match's record, ``writer`` appends them to JetStream
in order, ``reader`` reads a finished match's log back for its players and the replay.
"""
