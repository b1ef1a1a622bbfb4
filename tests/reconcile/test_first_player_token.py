"""The first-player tokens seen by the product's camera (issue 15, council privileges):
the Next First Player marker on its cell of the council chamber (seed 000, set-up step 8)
until the council's first privilege takes it, and who holds the token. With them the
camera tells « privilege 1 » from « no privilege »."""

from __future__ import annotations

from typing import Any

from test_figures_by_colour import by_camera

from companion import village as v
from companion.reconcile.chance import ChanceReader
from companion.reconcile.search import PathCache, explain
from companion.sim.table import camera_regions
from companion.village.picture import picture, regions_of


def _privilege_ones(situations: dict[str, Any]) -> list[tuple[v.GameState, dict[str, Any]]]:
    out = [(st, a) for st, a in situations["privilege"] if a.get("level") == 1]
    assert out, "the seeded games hold no first privilege"
    return out


def test_the_picture_says_whether_the_next_first_player_marker_is_home(
        situations: dict[str, Any]) -> None:
    for st, a in _privilege_ones(situations):
        assert regions_of(st)["first_player:home"] == 1
        after = v.apply(st, a)
        assert regions_of(after)["first_player:home"] == 0
        assert picture(after).regions()["first_player:home"] == 0
        assert regions_of(after)["first_player:" + a["player"]] == 1


def test_the_product_camera_sees_the_first_player_tokens(situations: dict[str, Any]) -> None:
    st, _a = _privilege_ones(situations)[0]
    names = set(camera_regions(st, ideal=False))
    assert "first_player:home" in names
    assert {"first_player:" + c.value for c in st.players} <= names


def test_the_first_privilege_is_told_from_no_privilege_by_the_camera(
        situations: dict[str, Any]) -> None:
    """Taken by the round's first player too: who is first does not change, but the
    marker leaves the council chamber."""
    for st, a in _privilege_ones(situations):
        after = v.apply(st, a)
        observed = by_camera(st, after)
        result = explain(PathCache(), st, observed, chance_from=ChanceReader(observed))
        assert len(result.matches) == 1, (a, result.matches)
        assert [x.to_json()["type"] for x in result.matches[0]] == ["privilege"]
        assert result.matches[0][0].to_json()["level"] == 1
