"""The bot pool: computer opponents that play through the public API, as people do.

Matchmaking asks for a bot on NATS (``pf.bots.request``); the pool signs a fresh guest in
through the gateway and names it. When the arbitration announces a match with that player
seated (``pf.match.<id>.opened``), the pool plays the seat: it watches the seat's updates,
decodes each view for the engine's own bots, waits out their think time and submits their
command — exactly what a browser can do, nothing more.
"""
