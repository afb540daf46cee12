"""A hostile client's campaign against the gateway (``make fuzz``; a short one in the tests)."""
