"""Python's cyclic garbage collector set for a long-running service: the reconciler's
search makes thousands of game states a second (each some forty dicts and lists), which
the collector's default thresholds (700, 10, 10) trace again and again, and whose churn
sets off full passes over every object the process holds (docs/sensing.md, « Compute
per look »: most of the CPU of the slowest looks on the tag readers alone).

`settle_collector` is called once start-up is done (the service, the reconcile bench):
what start-up made is frozen (never traced again, `gc.freeze`), and the young generation
is collected every `THRESHOLDS[0]` new objects instead of 700. Reference counting still
frees every object that is not in a cycle at once; only cycles wait a little longer."""

from __future__ import annotations

import gc

THRESHOLDS = (10_000, 20, 10)


def settle_collector() -> None:
    """Collect once, freeze what is left and raise the collector's thresholds
    (`THRESHOLDS`). Never raises."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


__all__ = ["THRESHOLDS", "settle_collector"]
