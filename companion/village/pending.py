"""Who must decide what next: the pending decision or draw of a state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import flow
from .state import GameState
from .vocabulary import Color


@dataclass(frozen=True, slots=True)
class Pending:
    """Who must decide what next. ``player`` is None for a chance point (``kind`` names the
    draw) and once the game is over."""

    kind: str
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
    phase = st.phase
    if phase == "reveal":
        n = min(len(st.to_reveal), len(st.unseen))
        return Pending("reveal_customers", None, {"slots": list(st.to_reveal[:n])})
    if phase == "fill":
        return Pending("fill_bag", None, {"round": st.round})
    if phase == "draw":
        return Pending("mass_draw", None, {"count": flow.draw_count(st)})
    if phase == "over":
        return Pending("over", None, {})
    if phase == "turn":
        final = st.final_queue is not None
        return Pending(
            "turn", st.current_color, {"final": final, "free": final and st.board_empty()}
        )
    if phase == "act":
        assert st.act_space is not None
        return Pending("action", st.current_color, {"space": st.act_space.value})
    if phase == "privilege":
        return Pending("privilege", st.current_color, {"max_level": st.privilege_max})
    if phase == "market":
        assert st.day is not None
        free = flow.serve_cost_free(st, st.day.turn)
        return Pending("market", st.day.turn, {"trigger": st.day.trigger.value, "free_sale": free})
    if phase == "death":
        assert st.death_player is not None
        return Pending("death", st.death_player, {})
    if phase == "buyout":
        # who is still to be asked, as things stand (those who cannot are not asked)
        order = [c.value for c in st.mass_order if flow.can_buy_out(st, c)]
        return Pending("buyout", st.mass_order[0], {"out": st.mass_out, "order": order})
    if phase == "move":
        order = [c.value for c in st.mass_order if flow.church_moves(st, c)]
        return Pending("church_move", st.mass_order[0], {"order": order})
    raise AssertionError(f"unknown phase {phase!r}")


def is_chance(st: GameState) -> bool:
    return st.phase in ("reveal", "fill", "draw")
