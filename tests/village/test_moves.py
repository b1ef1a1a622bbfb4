"""Every physical change of an event is told (issue 18, items 1 and 5 and the systemic
part): the moves found from the whole table before and after rebuild the table after, over
random games with every module; the narration says every move its first sentence does not
already say; sales say what goes back to which supply; unloading says every piece and
where the captain card goes."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from companion import village as v
from companion.bags import draw_with_rng
from companion.village.actions import Action, Serve
from companion.village.modules.port import port_of
from companion.village.move_words import piece_words, place_words
from companion.village.moves import (
    NOWHERE,
    Move,
    apply_moves,
    moves,
    secret_sale,
    table,
    told_by_headline,
)
from companion.village.narrate import narrate
from companion.village.state import GameState

SETUPS: list[tuple[str, ...]] = [(), ("port",), ("life_goals",), ("port", "life_goals")]
Step = tuple[GameState, Action, GameState]


def random_game(seed: int, modules: tuple[str, ...], steps: int = 700) -> Iterator[Step]:
    """A random game: chance drawn, then any legal or anytime action."""
    rng = random.Random(seed)
    players = ["red", "yellow", "blue", "white"][: 2 + seed % 3]
    kwargs = {"goal_claims": "auto" if seed % 2 else "manual"} if "life_goals" in modules else {}
    st = v.new_game(players, modules=modules, **kwargs)
    for _ in range(steps):
        if st.phase == "over":
            return
        spec = v.chance_spec(st)
        if spec is not None:
            obj = draw_with_rng(spec, rng)
        else:
            options = v.legal_actions(st)
            options += [a for c in st.players for a in v.anytime_actions(st, c)]
            obj = rng.choice(options).to_json()
        after = v.apply(st, obj)
        yield st, v.parse_action(obj), after
        st = after


@pytest.mark.parametrize("modules", SETUPS, ids=lambda m: "+".join(m) or "base")
@pytest.mark.parametrize("seed", range(3))
def test_the_moves_rebuild_the_table_after_every_event(seed: int, modules: tuple[str, ...]) -> None:
    kinds: set[str] = set()
    for before, action, after in random_game(seed, modules):
        ms = moves(before, after)
        assert apply_moves(table(before), ms) == table(after), action
        assert not [m for m in ms if NOWHERE in (m.src, m.dst)], (action, ms)
        kinds.add(action.type)
    assert len(kinds) > 12


def _said(before: GameState, action: Action, after: GameState, m: Move, text: str) -> bool:
    """Whether ``text`` says move ``m``: its destination (for a marker, the marker)."""
    if m.piece.startswith("time marker:"):
        return "time marker" in text
    if m.piece.startswith("prestige marker:"):
        return "prestige" in text
    if m.piece == "first-player token":
        return "first-player token" in text
    if m.dst.startswith("market:"):
        return "Move the customers up" in text
    if m.dst.startswith(("chronicle:", "graves", "removed", "sea:")):
        return " dies at " in text
    if m.dst.startswith("goals_up:"):
        return "face up" in text
    if m.piece.startswith("travel marker:"):
        return f"puts a travel marker on {place_words(after, m.dst)}" in text
    if m.piece in before.data.customers:
        return "the customer from " in text
    ends = [place_words(after, m.dst), place_words(before, m.src)]
    pieces = piece_words(before, m)
    return pieces in text and any(w in text or w.capitalize() in text for w in ends)


@pytest.mark.parametrize("modules", SETUPS[1:], ids=lambda m: "+".join(m))
def test_the_narration_says_every_move_its_first_sentence_does_not(
    modules: tuple[str, ...],
) -> None:
    told = 0
    for before, action, after in random_game(11, modules):
        text = " ".join(narrate(before, action, after))
        for m in moves(before, after):
            if told_by_headline(before, action, m) or secret_sale(action, m, "table"):
                continue
            told += 1
            assert _said(before, action, after, m, text), (action, m, text)
    assert told > 100


def _first(modules: tuple[str, ...], kind: str, seeds: range = range(40)) -> Step:
    for seed in seeds:
        for before, action, after in random_game(seed, modules):
            if action.type == kind and (kind != "serve" or (before.day and before.day.sold)):
                return before, action, after
    raise AssertionError(f"no {kind} in the random games")


def test_a_sale_says_what_goes_back_to_which_supply() -> None:
    """Item 1: the paid cube to the cube supply and the customer's wants to the general
    supply, for everyone; the seller's own view names the stall and the goods."""
    before, action, after = _first((), "serve")
    assert isinstance(action, Serve)
    public = " ".join(narrate(before, action, after))
    assert "back to the general supply the goods and grain" in public
    paid = dict(action.pay) if hasattr(action, "pay") else {}
    if "green" in paid:
        assert "green cube back to the cube supply" in public, public
    own = " ".join(narrate(before, action, after, viewer=action.player.value))
    tile = before.market[action.slot]
    assert tile is not None
    assert f"the customer from stall {action.slot + 1} face down" in own, own
    wants = before.data.customers[tile]
    if wants.grain:
        assert f"{wants.grain} grain" in own and "back to the general supply" in own, own
    assert tile not in own and tile not in public


def test_unloading_says_every_piece_and_the_captain_card() -> None:
    """Item 5: the ship back to the port, each piece of the hold to the farm, the captain
    card out of the game."""
    before, action, after = _first(("port",), "return_port")
    text = " ".join(narrate(before, action, after))
    ps = port_of(before)
    assert ps is not None
    ship = ps.ships[action.player]  # type: ignore[attr-defined]
    assert "to the port" in text, text
    assert "captain card" in text and "the box (out of the game)" in text, text
    for piece in ship.hold:
        if piece in ("cocoa", "tea"):
            assert {"cocoa": "cocoa basket", "tea": "tea bale"}[piece] in text, text


def test_an_exotic_sale_sends_the_basket_to_the_box() -> None:
    """Item 5: "Blue sells a cocoa basket at the market" says where the basket goes."""
    before, action, after = _first(("port",), "sell_exotic")
    text = " ".join(narrate(before, action, after))
    assert "back to the box" in text, text


def test_a_take_on_an_island_names_the_tile() -> None:
    """Item 4: "Take the top tile of the island's stack" never said it was a cocoa basket."""
    before, action, after = _first(("port",), "island_take")
    text = " ".join(narrate(before, action, after))
    assert any(w in text for w in ("cocoa basket", "tea bale", "treasure tile")), text
    assert "on island " in text
