"""Who must decide what next: the pending decision or draw of a state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import flow
from .state import GameState
from .vocabulary import Color, PhaseName


@dataclass(frozen=True, slots=True)
class Pending:
    """Who must decide what next. ``player`` is None for a chance point (``kind`` names the
    draw) and once the game is over."""

    kind: PhaseName  # the state's ``phase``
    player: Color | None
    detail: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "player": self.player.value if self.player else None,
            **self.detail,
        }


def pending(st: GameState) -> Pending:
    """The decision or draw the game waits for."""
    return st.rules.phases[st.phase].pending(st)


def is_chance(st: GameState) -> bool:
    return st.rules.phases[st.phase].chance is not None


# --- the base game's steps (registered in ``modules/base.py``) ---------------------------


def reveal_customers(st: GameState) -> Pending:
    n = min(len(st.to_reveal), len(st.unseen))
    return Pending(PhaseName("reveal_customers"), None, {"slots": list(st.to_reveal[:n])})


def fill_bag(st: GameState) -> Pending:
    return Pending(PhaseName("fill_bag"), None, {"round": st.round})


def mass_draw(st: GameState) -> Pending:
    return Pending(PhaseName("mass_draw"), None, {"count": flow.draw_count(st)})


def over(st: GameState) -> Pending:
    return Pending(PhaseName("over"), None, {})


def turn(st: GameState) -> Pending:
    final = st.final_queue is not None
    detail = {"final": final, "free": final and st.board_empty()}
    return Pending(PhaseName("turn"), st.current_color, detail)


def action(st: GameState) -> Pending:
    assert st.act_space is not None
    return Pending(PhaseName("action"), st.current_color, {"space": st.act_space.value})


def privilege(st: GameState) -> Pending:
    return Pending(PhaseName("privilege"), st.current_color, {"max_level": st.privilege_max})


def market(st: GameState) -> Pending:
    assert st.day is not None
    free = flow.serve_cost_free(st, st.day.turn)
    detail = {"trigger": st.day.trigger.value, "free_sale": free}
    return Pending(PhaseName("market"), st.day.turn, detail)


def death(st: GameState) -> Pending:
    assert st.death_player is not None
    return Pending(PhaseName("death"), st.death_player, {})


def buyout(st: GameState) -> Pending:
    # who is still to be asked, as things stand (those who cannot are not asked)
    order = [c.value for c in st.mass_order if flow.can_buy_out(st, c)]
    return Pending(PhaseName("buyout"), st.mass_order[0], {"out": st.mass_out, "order": order})


def church_move(st: GameState) -> Pending:
    order = [c.value for c in st.mass_order if flow.church_moves(st, c)]
    return Pending(PhaseName("church_move"), st.mass_order[0], {"order": order})


BASE_STEPS: dict[str, Callable[[GameState], Pending]] = {
    "reveal_customers": reveal_customers,
    "fill_bag": fill_bag,
    "mass_draw": mass_draw,
    "turn": turn,
    "action": action,
    "privilege": privilege,
    "market": market,
    "death": death,
    "buyout": buyout,
    "church_move": church_move,
    "over": over,
}
"""The base game's pending decision of each step, by step name (= the pending kind)."""
