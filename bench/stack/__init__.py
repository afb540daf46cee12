"""The whole-stack benchmark: `python -m bench.stack` (see __main__)."""
