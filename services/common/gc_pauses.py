"""Keep the garbage collector's pauses off the clock.

A full collection walks every tracked object and stops the event loop meanwhile; every
command in flight reads that pause as forwarding delay. Two measures keep it short:

- Everything alive at startup lives for the whole process: a service that imported
  grpc, protobuf, aiohttp and nats holds tens of thousands of objects before its first
  command, and moving them to the permanent generation (``gc.freeze``) leaves the
  collector only the objects made since (the gateway's worst full collection at 200
  live matches: 69 ms of CPU without, 19 ms with).
- CPython starts a young collection every 700 allocations, which under load is every few
  milliseconds: an object that lives a few milliseconds (a request in flight, a view on
  its way) survives two of them and is promoted to the old generation, which then fills
  with the dead and asks for full collections. With a young generation of 10,000 such
  objects die young. In the 200-match clean run on 1.3 cores' worth of CPU, the
  gateway's full collections during play went from two, the longer 53–75 ms, to one of
  4–5 ms; a young collection takes up to about 11 ms (docs/timing-faults.md).
"""

from __future__ import annotations

import gc

YOUNG_GENERATION = 10_000  # allocations between young collections (CPython: 700)
OLDER_GENERATIONS = 10  # collections of the generation below before an older one (as CPython)


def tune_collector() -> None:
    """Collect once, exempt every survivor from later collections, then widen the young gen."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_GENERATION, OLDER_GENERATIONS, OLDER_GENERATIONS)
