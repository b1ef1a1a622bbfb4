"""The hub's real parts for the tests: the one harness the benchmarks use too
(`companion.sim.hub_harness`)."""

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

__all__ = ["FIRMWARE", "IMAGE_TREE", "ROOT", "PeerHub", "SimHub", "SocatPair", "build_firmware",
           "build_sim", "wait_for"]
