"""What each life goal asks, in words, for the player's page (seed 003 « Objectifs de vie »:
silver goals ask for items on the farm, LA6; gold goals for places on the board, LG1–LG9).
Pure; ``condition`` raises KeyError for a goal it does not know."""

from __future__ import annotations

from .life_goals import HOLD_GOALS, GoalsData, _item_words

GOLD_CONDITIONS = {
    "minister": "a member on council level 4 and the next-first-player marker",
    "master_craftsman": "4 members in Crafts (buildings and the chronicle's Crafts section)",
    "historian": "members in 4 different sections of the chronicle",
    "saint": "a member on each of church windows 1, 2 and 3",
    "travelling_merchant": "a member in the top-right city of the travel map and 2 customers "
    "served",
    "disciple": "a fourth-generation member on a church window",
    "dealer": "6 customers served",
    "missionary": "members on 2 mission churches",
    "innkeeper": "4 villager cards in hand (L'Auberge)",
}


def condition(goal: str, data: GoalsData) -> str:
    """What ``goal`` asks: ``2 oxen and 1 plough on your farm`` or a gold goal's places."""
    if goal in GOLD_CONDITIONS:
        return GOLD_CONDITIONS[goal]
    wants = [f"{n} {_item_words(item, n)}" for item, n in sorted(data.silver_items[goal].items())]
    where = "on your ship's hold" if goal in HOLD_GOALS else "on your farm"
    return " and ".join(wants) + f" {where}" if wants else "nothing"


__all__ = ["GOLD_CONDITIONS", "condition"]
