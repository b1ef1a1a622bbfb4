"""A toy game for the game seam: in turn, each player adds 1 or 2; who reaches 10 wins."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from companion.games.simple import SimpleGame


@dataclass(frozen=True)
class Count:
    players: tuple[str, ...]
    total: int = 0
    turn: int = 0


class CountToTen(SimpleGame):
    name = "count-to-ten"
    action_types: ClassVar = {"add": ("player", "n")}

    def setup(self, players: list[str]) -> Count:
        return Count(tuple(players))

    def to_move(self, st: Count) -> str | None:
        return None if st.total >= 10 else st.players[st.turn]

    def moves(self, st: Count) -> list[dict[str, Any]]:
        who = self.to_move(st)
        return [] if who is None else [{"type": "add", "player": who, "n": n} for n in (1, 2)]

    def play(self, st: Count, a: dict[str, Any]) -> Count:
        return replace(st, total=st.total + a["n"], turn=(st.turn + 1) % len(st.players))

    def tell(self, before: Count, a: dict[str, Any], after: Count) -> str:
        won = " and wins" if after.total >= 10 else ""
        return f"{a['player'].capitalize()} adds {a['n']}: {after.total}{won}."

    def show(self, st: Count) -> dict[str, Any]:
        return {"players": list(st.players), "total": st.total}
