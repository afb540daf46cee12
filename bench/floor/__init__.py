"""The floor: a minimal relay built from the stack's own parts, measured beside it."""
