"""Proto <-> engine values for the rules service: one module per game, shared parts in ``common``.

Every game module offers the same functions (see :class:`services.rules.games.Codec`):
``options_from_proto``, ``command_from_proto``, ``command_to_proto``, ``view_to_proto``,
``views_to_proto`` (a step's views at once, so what they share is built once) and
``event_to_proto``. Decoding a command raises the engine's ``Malformed`` for anything the
engine could not name, so the one error mapping of the service covers codec errors too.
Clients that play by the engines' own bots (the bot pool) decode views back with each
game's ``view_from_proto``, the exact inverse of ``view_to_proto``.
"""
