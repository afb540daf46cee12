"""The arena's games, pure: engines, their codecs, their computer players and one registry.

No I/O, no clock, no global randomness. Each game package (``spit``, ``bid``) exposes the
same surface (:mod:`games.contract`); everything that serves games looks them up in
:mod:`games.registry` and never branches on a game's name.
"""
