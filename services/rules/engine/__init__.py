"""Pure rules engines: no I/O, no clock, no global randomness.

Each game package (``bid``, ``spit``) exposes the same small surface, described by
:class:`services.rules.engine.contract.Engine`; services look games up in
:data:`services.rules.engine.registry.GAMES` and never branch on a game's name.
"""
