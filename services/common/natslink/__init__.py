"""A lean NATS core connection for the hot path (see link.py)."""
