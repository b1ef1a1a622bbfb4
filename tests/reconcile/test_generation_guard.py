"""A camera counts figures by colour: which generation moved is never applied on its word
(issue 15). A second guard beside the search: a single explanation naming a member is
asked with every other member of the family whose same move shows the same on every
region observed (a church move of the wrong yellow figure was applied once, seed 6,
heavy noise, camera). With tag readers naming the members, nothing is added."""

from __future__ import annotations

from collections import Counter

from reconcile_kit import game_states

from companion import village as v
from companion.reconcile.observed import ByColour, colour_of
from companion.reconcile.reconciler import Reconciler
from companion.sim.memory_link import MemoryLink
from companion.village.picture import regions_of


def _setup() -> tuple[Reconciler, tuple[v.Action, ...], dict[str, object], dict[str, object]]:
    st, truth = game_states(1)[192]
    assert truth["type"] == "church_move"
    rec = Reconciler(MemoryLink(st))
    rec._cache.reset(st)
    path = (v.parse_action(truth),)
    after = regions_of(v.apply(st, truth))
    by_colour = {k: (ByColour(Counter(map(colour_of, val))) if k.startswith("church:") else val)
                 for k, val in after.items()}
    return rec, path, by_colour, after  # type: ignore[return-value]


def test_another_generation_whose_move_looks_the_same_to_the_camera_is_asked() -> None:
    rec, path, by_colour, _ids = _setup()
    others = rec._other_members(path, by_colour)  # type: ignore[arg-type]
    assert [[a.to_json()["member"] for a in p] for p in others] == [["red-1d"]]


def test_with_the_members_read_nothing_is_added() -> None:
    rec, path, _colour, ids = _setup()
    assert rec._other_members(path, ids) == []  # type: ignore[arg-type]
