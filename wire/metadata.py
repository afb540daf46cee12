"""gRPC metadata keys that both sides of an internal call spell the same way."""

# The calling service's own token, which the called service knows by its SHA-256
# (services/common/callers.py); the bot pool sends it to matchmaking too.
CALLER_TOKEN = "x-pf-caller-token"
