"""The figure and item part of the bench's listing of regions read wrong, by its older
name: `vision.bench_errors` holds it (``piece_failures``, ``wrong_regions``,
``piece_confusions``); ``python -m vision.bench_failures`` runs that one listing
(``companion vision-bench --errors``), cubes and tracks included."""

from __future__ import annotations

from .bench_errors import KINDS, main, piece_confusions, piece_failures, wrong_regions

confusions = piece_confusions  # the names this module had
failures = piece_failures

__all__ = ["KINDS", "confusions", "failures", "main", "wrong_regions"]

if __name__ == "__main__":
    raise SystemExit(main())
