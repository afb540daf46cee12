"""Players at many times a person's pace (sped-up bots, scripted loads) would meet the
gateway's command rate per player (services/gateway/ratelimit.py), which is set for
people; the stacks that run them raise it, so the tests measure the game, not the limit."""

FAST_PLAY_ENV = (("PF_COMMANDS_PER_S", "100000"), ("PF_COMMANDS_BURST", "100000"))
