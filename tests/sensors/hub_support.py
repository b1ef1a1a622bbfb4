"""The hub's real parts for the tests: the one harness the benchmarks use too
(`companion.sim.hub_harness`)."""

from collections.abc import Callable

from companion.sim.hub_harness import (
    FIRMWARE,
    IMAGE_TREE,
    ROOT,
    PeerHub,
    SimHub,
    SocatPair,
    build_firmware,
    build_sim,
    wait_for,
)

# The firmware in simavr keeps its own (simulated) time; on a loaded machine it runs behind the
# wall clock, and its 1 s heartbeat can come after the adapter's 3.5 s silence limit (two CI
# runs at load 12 saw "streaming -> lost" and a resync mid-test). Tests of the firmware give
# the adapter this much silence; the silence rule itself is tested on a pty pair
# (test_serial_hub_backoff.py).
SIM_LINK_TIMEOUT = 30.0
# For the same reason a wall-clock wait for something the simulated firmware does is given
# this many times its nominal length (it returns as soon as the thing is seen; latencies
# are asserted in simulated time, from the trace).
SIM_SLACK = 4.0


def sim_wait(cond: Callable[[], object], timeout: float, step: float = 0.01) -> bool:
    """`wait_for` with ``timeout`` stretched by `SIM_SLACK`: for events of the simulated hub."""
    return wait_for(cond, timeout * SIM_SLACK, step)

__all__ = [
    "FIRMWARE",
    "IMAGE_TREE",
    "ROOT",
    "SIM_LINK_TIMEOUT",
    "SIM_SLACK",
    "PeerHub",
    "SimHub",
    "SocatPair",
    "build_firmware",
    "build_sim",
    "sim_wait",
    "wait_for",
]
