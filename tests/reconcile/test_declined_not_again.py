"""« None of these » holds while the game stays where it was (issue 15, nineteenth session).

The players answered « none of these » to a green-bag fill the camera read with one cube's
colour misread (a fill the bag could hold, so asked for a one-tap confirmation alone); the
next player took a cube before the fill was entered on the tablet. The reconciler asked the
same misread fill again, now with the take, without the truth (seen in the reconcile bench,
camera, random play, seed 1, game 2, action 219, where the first prompt was replaced before
its late answer; here it is declined first). A candidate the players declined is no
explanation while the game has not moved on, nor is any path beginning with it: it is not
asked again, and never applied. The test failed before the rule."""

from __future__ import annotations

from typing import Any

from reconcile_kit import game_states, run
from test_adversarial import TruthLink, feed, never_wrong, product_camera

from companion import village as v
from companion.reconcile.observations import CubeCounts, Observation
from companion.reconcile.reconciler import Prompt, Reconciler

COLOURS = ("brown", "pink", "orange", "green", "plague")


def _misread_fill(st: v.GameState, fill: dict[str, Any], keep: str) -> dict[str, Any]:
    """The fill with one cube of a space other than ``keep`` read as another colour, still
    a fill the bag can hold."""
    for space, counts in sorted(fill["spaces"].items()):
        if space == keep:
            continue
        for was in sorted(c for c, n in counts.items() if n):
            for now in COLOURS:
                if now == was:
                    continue
                seen = dict(counts)
                seen[was] -= 1
                seen[now] = seen.get(now, 0) + 1
                other = {**fill, "spaces": {**fill["spaces"],
                                            space: {c: n for c, n in seen.items() if n}}}
                if v.is_legal(st, st.rules.forms.parse(other)):
                    return other
    raise AssertionError("no legal misread of the fill")


def _as_read(obs: list[Observation], fill: dict[str, Any], misread: dict[str, Any]
             ) -> list[Observation]:
    """The camera's observations with the misread space read as ``misread`` lays it."""
    out: list[Observation] = []
    for o in obs:
        if isinstance(o, CubeCounts) and o.region.startswith("space:"):
            space = o.region.split(":", 1)[1]
            if misread["spaces"].get(space) != fill["spaces"].get(space):
                counts = dict(o.counts)
                for c, n in fill["spaces"][space].items():
                    counts[c] = counts.get(c, 0) - n
                for c, n in misread["spaces"][space].items():
                    counts[c] = counts.get(c, 0) + n
                o = CubeCounts(o.source, o.t, region=o.region,
                               counts={c: n for c, n in counts.items() if n})
        out.append(o)
    return out


def test_a_declined_fill_is_not_asked_again_with_the_next_players_take() -> None:
    pairs = game_states(1)
    st, fill = pairs[46]
    take = pairs[47][1]
    assert fill["type"] == "fill_bag" and take["type"] == "take"
    misread = _misread_fill(st, fill, keep=take["space"])
    link = TruthLink(st, [fill, take])
    rec = Reconciler(link)
    feed(rec, product_camera(st, 0.0))
    run(rec, 0.0, 2.0)
    filled = v.apply(st, fill)
    feed(rec, _as_read(product_camera(filled, 3.0), fill, misread))
    asked = [o for o in run(rec, 3.0, 12.0) if isinstance(o, Prompt)]
    assert asked and asked[-1].candidates == [[misread]]  # the misread fill, alone
    rec.decline(asked[-1].id)
    # the next player takes a cube before the fill is entered on the tablet
    feed(rec, _as_read(product_camera(v.apply(filled, take), 14.0), fill, misread))
    out = run(rec, 14.0, 40.0)
    never_wrong(link)
    assert link.submitted == []
    again = [c for o in out if isinstance(o, Prompt) for c in o.candidates
             if c[:1] == [misread]]
    assert again == [], f"the declined fill asked again: {again}"
