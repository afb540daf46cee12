"""Operators' tools that read the system's records from outside it (the replay of a log)."""
