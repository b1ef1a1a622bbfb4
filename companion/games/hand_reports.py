"""Hand reports that stay sealed: a player's own share of a draw made by hand that another
player's report could clash with (two players cannot hold the same tile).

A game says which of its hand reports are of this kind through ``Game.sealed_share``: the
draw the report belongs to (a name the table uses to keep the reports of one draw
together), the step the game waits at while that draw is made, who has still to report,
and the value reported. The table keeps such reports sealed (`companion.table.sealed`)
until everyone of the draw has reported, then asks the game for the record of the whole
deal (``Game.sealed_deal``), so a refusal never tells a player what another holds.
Shares of a draw whose values may repeat (Colonia: two players may both draw iron and
wood) say so (``distinct`` false): equal values are then no clash.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SealedShare"]


@dataclass(frozen=True, slots=True)
class SealedShare:
    """One player's sealed report: of draw ``draw`` (waited for at step ``step``, still to be
    reported by ``to_report``), the value ``value`` (a tile's id, never shown to others);
    ``distinct``: no two players of the draw can report the same value."""

    draw: str
    step: str
    to_report: tuple[str, ...]
    value: str
    distinct: bool = True
