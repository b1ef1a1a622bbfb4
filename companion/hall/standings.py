"""A tournament's standings and a league's history, from finished games' results. Pure.

Order of the standings, best first:

1. **tournament points**, the organiser's: ``points[place - 1]`` for each game (players who
   share a place in a game each get that place's points; a place past the list gets 0);
2. then the organiser's choice among `TIE_BREAKS`, in the order given (default: all, in the
   order below), which begin with the game's own tie-breaks summed over the games — Village
   ranks a game by prestige, then customers served, then living members
   (`companion.village.scoring.ranking_key`) — then these documented ones: games won, then
   the best single game's prestige;
3. still tied: the same place, listed by name.

A game counts once it is over; a game abandoned or never played counts nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from companion.table.playlog import module_tag, tally

__all__ = ["DEFAULT_POINTS", "TIE_BREAKS", "Result", "Standing", "check_rules", "league",
           "standings"]

TIE_BREAKS: Final = ("prestige", "customers", "living", "wins", "best")
"""``prestige``, ``customers``, ``living``: the sums over the games of the game's own
tie-breaks; ``wins``: games won (place 1, shared or not); ``best``: the best game's prestige."""
DEFAULT_POINTS: Final = (3, 2, 1, 0)


@dataclass(frozen=True)
class Result:
    """One person's result in one finished game."""

    person: str
    place: int
    prestige: int
    customers: int
    living: int
    round: int = 0
    table: str = ""
    modules: tuple[str, ...] = ()


@dataclass
class Standing:
    """One person's line of the standings."""

    person: str
    points: int = 0
    games: int = 0
    wins: int = 0
    prestige: int = 0
    customers: int = 0
    living: int = 0
    best: int = 0
    place: int = 0
    rounds: dict[int, int] = field(default_factory=dict)
    """Tournament points by round."""

    def value(self, key: str) -> int:
        return int(getattr(self, key))


def check_rules(points: Any, tie_breaks: Any) -> tuple[list[int], list[str]]:
    """The organiser's rules, checked. Raises ValueError naming what is wrong: points must
    be a list of whole numbers not below 0, tie-breaks names from `TIE_BREAKS`, each once."""
    if not isinstance(points, list) or not points or \
            not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in points):
        raise ValueError("points: a list of whole numbers ≥ 0, by place (e.g. [3, 2, 1, 0])")
    if not isinstance(tie_breaks, list) or any(t not in TIE_BREAKS for t in tie_breaks) \
            or len(set(tie_breaks)) != len(tie_breaks):
        raise ValueError(f"tie_breaks: names among {', '.join(TIE_BREAKS)}, each at most once")
    return list(points), list(tie_breaks)


def standings(results: Iterable[Result], points: Sequence[int] = DEFAULT_POINTS,
              tie_breaks: Sequence[str] = TIE_BREAKS) -> list[Standing]:
    """The standings, best first, each with its ``place`` (see the module's docstring)."""
    by: dict[str, Standing] = {}
    for r in results:
        s = by.setdefault(r.person, Standing(r.person))
        earned = points[r.place - 1] if 1 <= r.place <= len(points) else 0
        s.points += earned
        s.rounds[r.round] = s.rounds.get(r.round, 0) + earned
        s.games += 1
        s.wins += r.place == 1
        s.prestige += r.prestige
        s.customers += r.customers
        s.living += r.living
        s.best = max(s.best, r.prestige)

    def key(s: Standing) -> tuple[int, ...]:
        return (s.points, *(s.value(t) for t in tie_breaks))

    rows = sorted(by.values(), key=lambda s: (tuple(-k for k in key(s)), s.person))
    last: tuple[int, ...] | None = None
    for i, s in enumerate(rows, 1):
        if key(s) != last:
            place, last = i, key(s)
        s.place = place
    return rows


def league(results: Iterable[Result]) -> list[dict[str, Any]]:
    """Per person over every game given: ``games``, ``wins``, ``average`` and ``best``
    prestige, and the same by module set (``by_modules``: "base", or the modules joined by
    "+"), most wins first then most games, then by name
    (`companion.table.playlog.tally`)."""
    return tally(((r.person, module_tag(r.modules), r.prestige, r.place == 1)
                  for r in results), who="person")
