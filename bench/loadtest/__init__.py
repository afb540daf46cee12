"""The tournament load test: `python -m bench.loadtest` (see __main__ and docs/loadtest.md)."""
