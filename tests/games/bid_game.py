"""A toy game with secret simultaneous choices: each round every player bids 1, 2 or 3
behind their hand; the bids are revealed together and each is added to its bidder's
score; after two rounds the highest score wins. Each player may bid 3 only once."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from companion.games.sealed import SealedChoice
from companion.games.simple import SimpleGame

ROUNDS = 2


@dataclass(frozen=True)
class Bids:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    round: int = 0


class SealedBids(SimpleGame):
    name = "sealed-bids"
    action_types: ClassVar = {"reveal_bids": ("answers",)}

    def setup(self, players: list[str]) -> Bids:
        return Bids(tuple(players), (0,) * len(players))

    def to_move(self, st: Bids) -> str | None:
        return None

    def sealed(self, st: Bids) -> SealedChoice | None:
        if st.round >= ROUNDS:
            return None
        # a player who already has 3 or more may no longer bid 3 (options differ by player)
        options = {p: (1, 2) if s >= 3 else (1, 2, 3) for p, s in zip(st.players, st.scores, strict=False)}
        return SealedChoice.of(f"round-{st.round + 1}", "reveal_bids", options,
                               "How much do you bid?")

    def moves(self, st: Bids) -> list[dict[str, Any]]:
        return []

    def play(self, st: Bids, a: dict[str, Any]) -> Bids:
        bids = a["answers"]
        scores = tuple(s + bids[p] for p, s in zip(st.players, st.scores, strict=False))
        return replace(st, scores=scores, round=st.round + 1)

    def tell(self, before: Bids, a: dict[str, Any], after: Bids) -> str:
        said = ", ".join(f"{p.capitalize()} {n}" for p, n in a["answers"].items())
        return f"Round {before.round + 1}, the bids: {said}."

    def show(self, st: Bids) -> dict[str, Any]:
        return {"players": list(st.players), "scores": list(st.scores), "round": st.round}
