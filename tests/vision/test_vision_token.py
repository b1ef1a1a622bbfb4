"""The first-player tokens (issue 15): the Next First Player marker on its cell of the
council chamber (seed 000, set-up step 8) or beside the farm of whoever took it with the
council's first privilege; the First Player marker beside the round's first player's farm
(set-up step 13). The reader reports them as the ``first_player`` track: ``home`` on cell
1 while the Next marker is on its cell, and each farm's colour on cell 1 for the holder
(the Next marker's holder if taken, else the First marker's)."""

from __future__ import annotations

import pytest

from vision import bench
from vision.layout import Layout
from vision.read import BoardReader
from vision.render import Scene, render
from vision.table import TableView

FOUR = ("red", "yellow", "blue", "white")


def _want(first: str, nxt: str) -> dict[str, int]:
    holder = first if nxt == "home" else nxt
    return {"home": int(nxt == "home"), **{c: int(c == holder) for c in FOUR}}


def test_the_layout_has_the_token_places(layout: Layout) -> None:
    main = {r.name: r.kind for r in layout.boards["main"].regions}
    assert main["first_player:home"] == "token"
    for c in FOUR:
        farm = {r.name: r.kind for r in layout.boards[f"farm:{c}"].regions}
        assert farm[f"first_player:{c}"] == "token"
    assert set(layout.token_rgb) == {"first", "next"}


@pytest.mark.parametrize(("first", "nxt"), [("red", "home"), ("red", "blue"),
                                             ("white", "white"), ("yellow", "red")])
def test_the_tokens_are_read_where_they_lie(layout: Layout, first: str, nxt: str) -> None:
    view = bench.random_view(layout, __import__("numpy").random.default_rng(5))
    view.tokens = {"first": first, "next": nxt}
    shot = render(layout, view, Scene(seed=11, perspective=0.03, blur=0.6, noise=2.0))
    reading = BoardReader(layout).read(shot.image)
    assert reading.tracks["first_player"] == _want(first, nxt)


def test_the_tokens_are_read_on_a_real_table(layout: Layout) -> None:
    import numpy as np
    g = np.random.default_rng(4)
    scene = bench.scene_for("real-ordinary", g, layout)
    view = bench.random_view(layout, g)
    view.tokens = {"first": "blue", "next": "yellow"}
    reader = bench.reader_for("real-ordinary", layout, scene, cubes=False)
    reading = reader.read(render(layout, view, scene).image)
    found = {b.partition(":")[2] for b, ok in reading.boards.items() if ok and b != "main"}
    assert {"blue", "yellow"} <= found  # a farm out of the frame is not reported
    want = {k: n for k, n in _want("blue", "yellow").items() if k in found | {"home"}}
    assert reading.tracks["first_player"] == want


def test_a_token_nowhere_to_be_seen_is_uncertain_not_a_reading(layout: Layout) -> None:
    """Under a hand, or not yet put down: no reading rather than a wrong one; a table
    that never showed the tokens (played without them) is not uncertain."""
    reader = BoardReader(layout)
    none = reader.read(render(layout, TableView(), Scene(seed=2)).image)
    assert "first_player" not in none.tracks and "first_player" not in none.uncertain
    both = reader.read(render(layout, TableView(tokens={"first": "red", "next": "home"}),
                              Scene(seed=2)).image)
    assert both.tracks["first_player"]["home"] == 1
    view = TableView(tokens={"first": "red", "next": "nowhere"})
    reading = reader.read(render(layout, view, Scene(seed=2)).image)
    assert "first_player" not in reading.tracks
    assert "first_player" in reading.uncertain


@pytest.mark.parametrize("place", ["first_player:home", "first_player:red"])
def test_a_hand_over_a_token_is_a_hand_seen_there(layout: Layout, place: str) -> None:
    """A hand moving a token is a hand over the ``first_player`` track (occluded), not only
    the token unseen (uncertain): the reconciler asks every privilege when the camera never
    says a hand was there (eighteenth session). The token's reading is not committed under
    it; with the hand gone the track is read again and not occluded."""
    from vision.render import on_table
    view = TableView(tokens={"first": "red", "next": "home"})
    spot = on_table(layout, place)
    assert spot is not None
    reader = BoardReader(layout)
    clear = reader.read(render(layout, view, Scene(seed=2)).image)
    assert "first_player" not in clear.occluded
    under = reader.read(render(layout, view, Scene(seed=2, hands=[spot])).image)
    assert "first_player" in under.occluded
    assert "first_player" not in under.tracks
    after = reader.read(render(layout, view, Scene(seed=2)).image)
    assert "first_player" not in after.occluded and after.tracks["first_player"]["home"] == 1


def test_a_hand_elsewhere_is_no_hand_over_the_tokens(layout: Layout) -> None:
    """A hand over a space far from every token leaves the track out of the hands."""
    from vision.render import on_table
    view = TableView(tokens={"first": "red", "next": "home"})
    spot = on_table(layout, "space:market")
    assert spot is not None
    reading = BoardReader(layout).read(render(layout, view, Scene(seed=2, hands=[spot])).image)
    assert reading.occluded and "first_player" not in reading.occluded
