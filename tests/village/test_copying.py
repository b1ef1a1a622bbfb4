"""The generated state copies: nothing mutable shared but the values the engine replaces
whole (each space's cubes, each chronicle section: copy on write), which no action changes
in place; every field copied, and a mutable field that does not say how it is copied
refused when its class is made."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields

import pytest

import companion.village as v
from companion.bags import draw_with_rng
from companion.village.copying import COPY, with_clone
from companion.village.modules.port import port_of


def _played(modules: tuple[str, ...], steps: int, seed: int) -> v.GameState:
    rng = random.Random(seed)
    st = v.new_game(["red", "blue", "white"], modules=modules)
    for _ in range(steps):
        spec = v.chance_spec(st)
        action = v.parse_action(draw_with_rng(spec, rng)) if spec else rng.choice(
            v.legal_actions(st))
        st = v.apply_unchecked(st, action)
    return st


_ON_WRITE = ("spaces", "chronicle")  # dicts whose values are replaced whole (state.py)


def _mutables(obj: object, seen: set[int], out: list[object]) -> None:
    """Every dict, list, set and state object reachable from ``obj`` through its fields,
    but the values of the copy-on-write dicts (`_ON_WRITE`)."""
    if id(obj) in seen:
        return
    if isinstance(obj, (dict, list, set)):
        seen.add(id(obj))
        out.append(obj)
        items = obj.values() if isinstance(obj, dict) else obj
        for x in items:
            _mutables(x, seen, out)
    elif hasattr(obj, "__dataclass_fields__") and not obj.__dataclass_params__.frozen:
        seen.add(id(obj))
        out.append(obj)
        for f in fields(obj):  # type: ignore[arg-type]
            if f.name in _ON_WRITE:
                seen.add(id(getattr(obj, f.name)))
                out.append(getattr(obj, f.name))
            elif f.name not in ("rules", "data", "house", "round_fill", "cube_totals"):
                _mutables(getattr(obj, f.name), seen, out)


@pytest.mark.parametrize("modules", [(), ("port", "life_goals")])
def test_a_clone_equals_its_state_and_shares_nothing_mutable(modules: tuple[str, ...]) -> None:
    st = _played(modules, 120, seed=4)
    copy = st.clone()
    assert copy == st and type(copy) is type(st)
    theirs: list[object] = []
    _mutables(st, set(), theirs)
    mine: list[object] = []
    _mutables(copy, set(), mine)
    assert len(mine) == len(theirs) > 10
    assert not {id(x) for x in mine} & {id(x) for x in theirs}
    if modules:
        ps = port_of(copy)
        assert ps is not None and ps is not port_of(st) and ps.ships[v.Color.RED].hold is not (
            port_of(st).ships[v.Color.RED].hold)  # type: ignore[union-attr]


@pytest.mark.parametrize("modules", [(), ("port", "life_goals")])
def test_the_copy_on_write_values_are_shared_and_never_changed_in_place(
        modules: tuple[str, ...]) -> None:
    rng = random.Random(7)
    st = v.new_game(["red", "blue", "white"], modules=modules)
    copy = st.clone()
    assert all(copy.spaces[s] is st.spaces[s] for s in st.spaces)
    assert all(copy.chronicle[s] is st.chronicle[s] for s in st.chronicle)
    chronicled = 0
    for _ in range(600):
        if st.phase == "over":
            break
        was = ({s: dict(c) for s, c in st.spaces.items()},
               {s: list(m) for s, m in st.chronicle.items()})
        spec = v.chance_spec(st)
        action = v.parse_action(draw_with_rng(spec, rng)) if spec else rng.choice(
            v.legal_actions(st))
        new = v.apply_unchecked(st, action)
        assert (st.spaces, st.chronicle) == was  # the state before: untouched
        chronicled += new.chronicle != st.chronicle
        st = new
    assert chronicled >= 3  # deaths written in the chronicle were played through


def test_a_mutable_field_that_does_not_say_how_it_is_copied_is_refused() -> None:
    with pytest.raises(TypeError, match=r"Bad\.items is mutable"):

        @with_clone
        @dataclass
        class Bad:
            name: str
            items: list[str] = field(default_factory=list)

    @with_clone
    @dataclass
    class Good:
        name: str
        items: list[str] = field(default_factory=list, metadata=COPY)

    good = Good("x", ["a"])
    copy = good.clone()  # type: ignore[attr-defined]
    assert copy == good and copy.items is not good.items
