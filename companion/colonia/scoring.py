"""The end: stained glass to the strict majority in each currency, relic points with the
reliquaries' doubles, the winner and the tie-breaks (seed 004, « Fin du jeu et
décompte »)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .cards import Relic


@dataclass(frozen=True, slots=True)
class Score:
    """One player's final score and its reasons."""

    color: str
    relics: int  # relics alone
    doubled: int  # relics in a reliquary, counted twice
    windows: tuple[str, ...]  # stained glass won (by currency)
    window_vp: int
    money_left: int
    goods: int
    materials: int

    @property
    def total(self) -> int:
        return self.relics + self.doubled + self.window_vp


def relic_points(relics: Sequence[Relic], kept: Mapping[str, str]) -> tuple[int, int]:
    """(points of relics alone, points of relics in a reliquary, doubled): « Un reliquaire
    double les points de victoire de la relique qui lui est affectée »; an empty one
    scores 0."""
    inside = set(kept.values())
    alone = sum(r.vp for r in relics if r.kind == "relic" and r.name not in inside)
    doubled = sum(2 * r.vp for r in relics if r.kind == "relic" and r.name in inside)
    return alone, doubled


def stained_glass(money: Mapping[str, int]) -> str | None:
    """Who wins the window of one currency: the one with strictly the most; a tie at the
    top (or nobody with any) gives none (« En cas d'égalité, … n'est pas attribué »)."""
    if not money:
        return None
    top = max(money.values())
    holders = [p for p, m in money.items() if m == top]
    return holders[0] if len(holders) == 1 and top > 0 else None


def ranking(scores: Sequence[Score]) -> list[list[str]]:
    """The places, best first, each a list of players (more than one: a draw): points,
    then money left after the windows, then goods, then materials."""
    def key(s: Score) -> tuple[int, int, int, int]:
        return (s.total, s.money_left, s.goods, s.materials)

    places: list[list[str]] = []
    last: tuple[int, int, int, int] | None = None
    for s in sorted(scores, key=key, reverse=True):
        if key(s) == last:
            places[-1].append(s.color)
        else:
            places.append([s.color])
        last = key(s)
    return places
