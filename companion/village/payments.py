"""Ways to pay: cubes with coins as jokers (seed 000 « Les pièces » 3), scrolls, time."""

from __future__ import annotations

from itertools import combinations_with_replacement

from .actions import Pay, pay_of
from .state import Player
from .vocabulary import INFLUENCE, Cube, Good


def cube_options(player: Player, need: dict[Cube, int]) -> list[Pay]:
    """Every way ``player`` can pay the influence cubes in ``need``, each cube either itself
    or a coin. Empty when the player cannot pay."""
    partials: list[tuple[tuple[str, int], ...]] = [()]
    coin_counts: list[int] = [0]
    for colour, k in need.items():
        nxt: list[tuple[tuple[str, int], ...]] = []
        nxt_coins: list[int] = []
        have = player.cubes[colour]
        for partial, coins in zip(partials, coin_counts, strict=True):
            for jokers in range(k + 1):
                cubes = k - jokers
                if cubes > have or coins + jokers > player.coins:
                    continue
                nxt.append((*partial, (colour.value, cubes)) if cubes else partial)
                nxt_coins.append(coins + jokers)
        partials, coin_counts = nxt, nxt_coins
    return [
        pay_of({**dict(partial), "coin": coins})
        for partial, coins in zip(partials, coin_counts, strict=True)
    ]


def can_pay(player: Player, need: dict[Cube, int]) -> bool:
    """True when `cube_options` ``(player, need)`` is not empty: every cube short is made
    up by a coin."""
    short = 0
    for colour, k in need.items():
        short += max(0, k - player.cubes[colour])
    return short <= player.coins


def gain_options(supply: dict[Cube, int], count: int) -> list[tuple[Cube, ...]]:
    """The ways to take ``count`` influence cubes of one's choice from the supply (fewer if
    the supply holds fewer)."""
    total = sum(supply[c] for c in INFLUENCE)
    k = min(count, total)
    out = []
    for combo in combinations_with_replacement(INFLUENCE, k):
        if all(combo.count(c) <= supply[c] for c in set(combo)):
            out.append(tuple(sorted(combo)))
    return out


def apply_pay(player: Player, supply: dict[Cube, int], pay: Pay) -> int:
    """Take a validated payment from ``player`` (cubes back to the supply); returns the time
    it includes, which the caller spends."""
    time = 0
    for res, n in pay:
        if res == "coin":
            player.coins -= n
        elif res == "time":
            time += n
        elif res == "scroll":
            player.goods[Good.SCROLL] -= n
        else:
            cube = Cube(res)
            player.cubes[cube] -= n
            supply[cube] += n
    return time
