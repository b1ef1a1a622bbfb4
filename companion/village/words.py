"""The table's shared words: colours, figures, places, counts, payments and customers as a
person says them (``Red 2a``, ``council level 2``, ``2 green cubes``), and where an action
puts its figure. Used by the narration (`narrate`, `move_words`) and the options' labels
(`options`); a rule module's places come from its own table (``rules.places``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.words import join_words

from .actions import (
    Action,
    CouncilAdvance,
    CouncilEnter,
    Pay,
    Recall,
    Train,
    Travel,
)
from .state import GameState, Loc
from .vocabulary import MONK, Color, Space

if TYPE_CHECKING:
    from .rules import Rules


SPACE_NAMES = {s: s.value.capitalize() for s in Space}
BUILDING_NAMES = {
    "wainwright": "the Wainwright",
    "stables": "the Stables",
    "office": "the Office",
    "smithy": "the Smithy",
    "mill": "the Mill",
}
SECTION_NAMES = {
    "council": "council",
    "crafts": "crafts",
    "travel": "travel",
    "church": "church",
    "farm": "farm",
}


def colour_name(color: Color | str) -> str:
    """``red`` → ``Red``."""
    return str(color).capitalize()


def member_name(member: str) -> str:
    """``red-2a`` → ``Red 2a``; ``monk`` → ``a monk``."""
    if member == MONK:
        return "a monk"
    colour, rest = member.split("-", 1)
    return f"{colour.capitalize()} {rest}"


def city_name(city: str) -> str:
    """``north-west`` → ``North-West``."""
    return "-".join(part.capitalize() for part in city.split("-"))


def place_name(loc: Loc, rules: Rules | None = None) -> str:
    """Where a figure stands, in words: ``the farm``, ``the Smithy``, ``council level 2``…
    (a rule module's zone in the words of ``rules.places``)."""
    zone, detail = loc
    if zone == "farm":
        return "the farm"
    if zone == "unborn":
        return "the unborn (beside the farm)"
    if zone == "craft":
        return BUILDING_NAMES.get(str(detail), str(detail))
    if zone == "council":
        return f"council level {detail}"
    if zone == "travel":
        return city_name(str(detail))
    if zone == "bag":
        return "the black bag"
    if zone == "church":
        return f"church window {detail}"
    if zone == "chronicle":
        return f"the chronicle, {SECTION_NAMES.get(str(detail), str(detail))} section"
    if zone == "grave":
        return "an anonymous grave"
    own = rules.places.get(zone) if rules is not None else None
    if own is not None:
        return own(detail)
    return "out of the game"


def place_at(loc: Loc) -> str:
    """Where a figure stands, with its preposition: ``on the farm``, ``at the Smithy``,
    ``in church window 2``, ``on council level 1``, ``in North-West``."""
    prep = {"craft": "at", "church": "in", "travel": "in", "bag": "in", "mission": "at"}
    return f"{prep.get(loc[0], 'on')} {place_name(loc)}"


def slot_name(slot: int) -> str:
    """Market space 0-9 → ``stall 1`` … ``waiting line 5``."""
    return f"stall {slot + 1}" if slot < 5 else f"waiting line {slot - 4}"


def count(n: int, word: str, plural: str | None = None) -> str:
    """``1 coin``, ``2 coins``; ``plural`` for irregular words."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {plural or word + 's'}"


def article(noun: str) -> str:
    """``a brown cube``, ``an orange cube``, ``an ox``."""
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


def pay_text(pay: Pay) -> str:
    """A payment in words: ``2 green cubes``, ``1 green cube and 1 coin``, ``1 scroll``."""
    parts = []
    for res, n in pay:
        if res == "coin":
            parts.append(count(n, "coin"))
        elif res == "scroll":
            parts.append(count(n, "scroll"))
        elif res == "time":
            parts.append(f"{n} time")
        else:
            parts.append(count(n, f"{res} cube"))
    return join_words(parts)


def customer_text(st: GameState, tile: str) -> str:
    """What a customer tile shows: ``wants 1 plough and 1 scroll, gives 5 prestige`` (the
    tile's id is printed nowhere on it, so it is not said)."""
    c = st.data.customers[tile]
    wants = [count(n, g.value) for g, n in c.goods]
    if c.grain:
        wants.append(f"{c.grain} grain")
    return f"wants {join_words(wants) or 'nothing'}, gives {c.prestige} prestige"


def placed_by(before: GameState, a: Action) -> dict[str, Loc]:
    """Where the action itself put its member, before any death at the end of the turn."""
    if isinstance(a, Train):
        return {a.member: ("craft", a.building)}
    if isinstance(a, Travel):
        return {a.member: ("travel", a.city)}
    if isinstance(a, CouncilEnter):
        return {a.member: ("council", 1)}
    if isinstance(a, CouncilAdvance):
        return {a.member: ("council", before.members[a.member][1] + 1)}
    if isinstance(a, Recall):
        return {a.member: ("farm", None)}
    return {}
