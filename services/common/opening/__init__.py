"""Opening a match, for whoever pairs players: its spec, its messages, the ask to arbitration."""
