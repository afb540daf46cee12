"""The whole-stack benchmark's settings: pace, limits, and when a figure means trouble."""

from __future__ import annotations

import os
from typing import TypeVar

from photofinish.game.v1 import game_pb2

GAME_BY_NAME = {"spit": game_pb2.GAME_SPIT, "bid": game_pb2.GAME_BID}
# Think-time multipliers that bring a HARD bot to about 2 commands/s (module docstring).
SPIT_THINK_SCALE = 0.9
BID_THINK_SCALE = 0.25
SETUP_CONCURRENCY = 16
SETUP_TIMEOUT_S = 180.0
STOP_TIMEOUT_S = 90.0
LAG_PROBE_S = 0.05
CANCEL_ROUNDS = 10
CANCEL_WAIT_S = 1.0
MISSING_AFTER_S = 1.0  # an accepted command whose views are this late at the stop
SATURATED = 0.85  # of one core: a single-threaded event loop past this is the bottleneck
MACHINE_SATURATED = 0.85  # of all cores, every process on the machine
OUTSIDE_NOISE = 0.25  # of one core used by processes that are not this run's
WORKER_LAG_MS = 5.0  # a load worker's event loop later than this (p99) distorts its timings
CORES = os.cpu_count() or 1
T = TypeVar("T")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

# --pin: the stack on one CPU, the load generator on the other.
STACK_CPU = 0
LOAD_CPU = 1


# Scripted players may go faster than a person (--pace, think scales): the per-player
# command rate at the edge is set for people, so the load measures the stack, not it.
LOAD_ENV = (("PF_COMMANDS_PER_S", "100000"), ("PF_COMMANDS_BURST", "100000"))
