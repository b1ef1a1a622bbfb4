"""Life-goal tiles reported by hand, sealed until every player has reported.

At a table dealing the goal tiles by hand, each player draws a tile, looks at it and taps
its name on their own page (seed 002 LS4). A report applied at once would be checked
against the tiles already reported, and the refusal ("already dealt to another player")
would tell the reporter what another player holds; reporting tile after tile would read
the others' hands. So the reports of a tier are kept sealed (the answer to a report is the
same whatever the tile), and opened together when the last player of the tier has
reported: tiles named once are dealt in one event; two reports naming the same tile are a
clash (somebody misread a tile), and both players, and only they, are asked to look at
their tile again, in the same words, while the others' reports stay sealed. A player may
change a sealed report until the last one is in.

The sealed reports live in memory: after a restart the players who had reported are asked
again (their page shows the tier's tiles as before). Any change of the game other than the
opening (an undo, a virtual deal of the rest) opens or drops them first (see
`TableService`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CHECK_AGAIN", "Opening", "SealedReports"]

CHECK_AGAIN = (
    "Your report and another player's name the same tile. Please look at your tile again "
    "and tap its name."
)
"""What a player whose report clashed is told (the same words for both players)."""


@dataclass(frozen=True, slots=True)
class Opening:
    """What opening the sealed reports of a tier gives: the deal to apply (None: nothing
    to deal) and the players asked to look at their tile again."""

    deal: dict[str, Any] | None
    check_again: tuple[str, ...]


@dataclass
class SealedReports:
    """The sealed reports of one tier being dealt: colour → the goal tile reported."""

    tier: str | None = None
    tiles: dict[str, str] = field(default_factory=dict)
    check_again: set[str] = field(default_factory=set)

    def seal(self, tier: str, color: str, goal: str) -> None:
        """Keep ``color``'s report of ``goal`` (replacing an earlier one of the same tier)."""
        if self.tier != tier:
            self.clear()
            self.tier = tier
        self.tiles[color] = goal
        self.check_again.discard(color)

    def complete(self, to_deal: list[str]) -> bool:
        """Whether every player still to be dealt has a sealed report."""
        return bool(to_deal) and all(c in self.tiles for c in to_deal)

    def _split(self) -> tuple[dict[str, str], list[str]]:
        """The reports naming a tile nobody else named, and the players whose reports clash."""
        named = Counter(self.tiles.values())
        fine = {c: g for c, g in self.tiles.items() if named[g] == 1}
        return fine, sorted(c for c in self.tiles if c not in fine)

    def open(self) -> Opening:
        """Open the sealed reports: the clash-free ones as one deal, the clashing ones
        dropped and their players asked again. Keeps nothing once a deal is given."""
        if self.tier is None or not self.tiles:
            return Opening(None, ())
        fine, clash = self._split()
        if clash:
            for color in clash:
                del self.tiles[color]
            self.check_again |= set(clash)
            return Opening(None, tuple(clash))
        deal = {"type": "deal_goals", "tier": self.tier, "hands": dict(sorted(fine.items()))}
        self.clear()
        return Opening(deal, ())

    def open_clash_free(self) -> dict[str, Any] | None:
        """The deal of the reports that clash with no other (before a virtual deal of the
        rest); the clashing ones are dropped (their players are dealt virtually)."""
        if self.tier is None:
            return None
        fine, _clash = self._split()
        tier = self.tier
        self.clear()
        if not fine:
            return None
        return {"type": "deal_goals", "tier": tier, "hands": dict(sorted(fine.items()))}

    def clear(self) -> None:
        self.tier = None
        self.tiles.clear()
        self.check_again.clear()

    def public(self) -> dict[str, Any]:
        """What anyone may see: who has reported, who is asked to look again."""
        return {"tier": self.tier, "reported": sorted(self.tiles),
                "check_again": sorted(self.check_again)}

    def private(self, color: str) -> dict[str, Any]:
        """What ``color`` may see of their own report."""
        return {"tier": self.tier, "sealed": self.tiles.get(color),
                "check_again": CHECK_AGAIN if color in self.check_again else None}
