"""Hand reports sealed until every player of the draw has reported.

At a table dealing tiles by hand (Village: the life-goal tiles, seed 002 LS4), each player
draws a tile, looks at it and taps its name on their own page. A report applied at once
would be checked against the tiles already reported, and the refusal ("already dealt to
another player") would tell the reporter what another player holds; reporting tile after
tile would read the others' hands. So the reports a game marks as sealed
(`companion.games.hand_reports.SealedShare`) are kept here (the answer to a report is the
same whatever the tile), and opened together when the last player of the draw has
reported: tiles named once are dealt in one event (the game writes its record,
``Game.sealed_deal``); two reports naming the same tile are a clash (somebody misread a
tile), and both players, and only they, are asked to look at their tile again, in the same
words, while the others' reports stay sealed. A player may change a sealed report until the
last one is in. Of a draw whose values may repeat (``SealedShare.distinct`` false: Colonia's
materials), equal reports are no clash; a deal the game refuses as a whole (more of a
material than the bag holds) asks every player of the draw to look again, in the same words
(`SealedReports.refused`), so nobody learns whose report did not fit.

The sealed reports live in memory: after a restart the players who had reported are asked
again (their page shows the draw's tiles as before). Any change of the game other than the
opening (an undo, a virtual deal of the rest) opens or drops them first (see
`TableService`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.games.hand_reports import SealedShare

__all__ = ["CHECK_AGAIN", "CHECK_ALL_AGAIN", "Opening", "SealedReports"]

CHECK_AGAIN = (
    "Your report and another player's name the same tile. Please look at your tile again "
    "and tap its name."
)
"""What a player whose report clashed is told (the same words for both players)."""

CHECK_ALL_AGAIN = (
    "The reports of this draw do not fit together (the bag cannot hold them all). Please "
    "look at what you drew again and tap it."
)
"""What every player of a draw whose deal the game refused is told (the same words)."""


@dataclass(frozen=True, slots=True)
class Opening:
    """What opening the sealed reports of a draw gives: the shares to deal (None: nothing
    to deal) and the players asked to look at their tile again."""

    draw: str | None
    shares: dict[str, str] | None
    check_again: tuple[str, ...]


@dataclass
class SealedReports:
    """The sealed reports of one draw being made: player → the tile reported. ``step``:
    the game's step while that draw is waited for (the reports are dropped when it is
    left some other way)."""

    tier: str | None = None  # the draw (Village: the goal tier); the API's word
    step: str | None = None
    tiles: dict[str, str] = field(default_factory=dict)
    check_again: set[str] = field(default_factory=set)
    distinct: bool = True  # two equal reports are a clash
    all_again: bool = False  # the last deal was refused as a whole

    def seal(self, share: SealedShare, color: str) -> None:
        """Keep ``color``'s share (replacing an earlier one of the same draw)."""
        if self.tier != share.draw:
            self.clear()
            self.tier = share.draw
            self.step = share.step
            self.distinct = share.distinct
        self.tiles[color] = share.value
        self.check_again.discard(color)

    def complete(self, to_report: tuple[str, ...]) -> bool:
        """Whether every player still to report has a sealed report."""
        return bool(to_report) and all(c in self.tiles for c in to_report)

    def _split(self) -> tuple[dict[str, str], list[str]]:
        """The reports naming a tile nobody else named, and the players whose reports clash."""
        if not self.distinct:
            return dict(self.tiles), []
        named = Counter(self.tiles.values())
        fine = {c: g for c, g in self.tiles.items() if named[g] == 1}
        return fine, sorted(c for c in self.tiles if c not in fine)

    def open(self) -> Opening:
        """Open the sealed reports: the clash-free ones as one deal, the clashing ones
        dropped and their players asked again. Keeps nothing once a deal is given."""
        if self.tier is None or not self.tiles:
            return Opening(None, None, ())
        fine, clash = self._split()
        if clash:
            for color in clash:
                del self.tiles[color]
            self.check_again |= set(clash)
            return Opening(self.tier, None, tuple(clash))
        draw = self.tier
        self.clear()
        return Opening(draw, dict(sorted(fine.items())), ())

    def open_clash_free(self) -> Opening:
        """The reports that clash with no other (before a virtual deal of the rest); the
        clashing ones are dropped (their players are dealt virtually). Keeps nothing."""
        if self.tier is None:
            return Opening(None, None, ())
        fine, _clash = self._split()
        draw = self.tier
        self.clear()
        return Opening(draw, dict(sorted(fine.items())) if fine else None, ())

    def refused(self, share: SealedShare, players: tuple[str, ...]) -> None:
        """The deal opened from ``share``'s draw was refused by the game as a whole: keep
        nothing of it and ask every one of ``players`` to look again."""
        self.seal(share, players[0] if players else "")
        self.tiles.clear()
        self.check_again = set(players)
        self.all_again = True

    def clear(self) -> None:
        self.tier = None
        self.step = None
        self.tiles.clear()
        self.check_again.clear()
        self.distinct = True
        self.all_again = False

    def public(self) -> dict[str, Any]:
        """What anyone may see: who has reported, who is asked to look again."""
        return {"tier": self.tier, "reported": sorted(self.tiles),
                "check_again": sorted(self.check_again)}

    def private(self, color: str) -> dict[str, Any]:
        """What ``color`` may see of their own report."""
        again = CHECK_ALL_AGAIN if self.all_again else CHECK_AGAIN
        return {"tier": self.tier, "sealed": self.tiles.get(color),
                "check_again": again if color in self.check_again else None}
