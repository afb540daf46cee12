"""Pure rules engines: no I/O, no clock, no global randomness.

Each game package (``bid``, ``spit``) exposes the same small surface, described by
:class:`services.rules.engine.contract.Engine`; the rules service looks games up in
:data:`services.rules.games.GAMES` and never branches on a game's name.
"""
