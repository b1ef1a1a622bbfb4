"""The moves of an event (``moves.moves``) in words for the table: every piece, where it
comes from, where it goes, which supply it goes back to.

``moves_text(before, action, after, viewer)`` leaves out only what the narration's first
sentence already says (``moves.told_by_headline``) and, for viewers other than the seller,
which customer a sale served (one sentence says that the seller hands back what it asked
for). Figures moving come first, then the other pieces, the time markers (and the bridge),
prestige, the first-player token, and the deaths last. Never prints a tile id.
"""

from __future__ import annotations

from companion.games.words import join_words

from . import zones
from .actions import Action
from .moves import (
    BANK,
    GENERAL,
    Move,
    is_unlimited,
    moves,
    secret_sale,
    told_by_headline,
)
from .state import GameState, Loc
from .vocabulary import ALL_MEMBERS, Space, is_member
from .words import (
    SPACE_NAMES,
    city_name,
    colour_name,
    count,
    member_name,
    place_name,
    placed_by,
    slot_name,
)

DEAD = frozenset({"chronicle", "graves", "removed", "sea"})
PIECE_NOUNS = {
    "grain": ("grain", "grain"),
    "coin": ("coin", "coins"),
    "ox": ("ox", "oxen"),
    "cocoa": ("cocoa basket", "cocoa baskets"),
    "tea": ("tea bale", "tea bales"),
    "treasure": ("treasure tile", "treasure tiles"),
}


def moves_text(
    before: GameState, action: Action, after: GameState, viewer: str = "table"
) -> list[str]:
    """Every move of ``action`` not told by its first sentence, in words (see the module)."""
    ms = [m for m in moves(before, after) if not told_by_headline(before, action, m)]
    secret = [m for m in ms if secret_sale(action, m, viewer)]
    ms = [m for m in ms if m not in secret]
    figures = [m for m in ms if m.piece in ALL_MEMBERS]
    deaths = [m for m in figures if zones.split(m.dst)[0] in DEAD]
    out = [_figure(before, m) for m in figures if m not in deaths]
    if secret:
        who = colour_name(getattr(action, "player", ""))
        out.append(
            f"{who} hands back to the general supply the goods and grain shown on that "
            "customer's tile (which customer stays secret)."
        )
    market_up = [m for m in ms if m.src.startswith("market:") and m.dst.startswith("market:")]
    if market_up:
        out.append(
            "Move the customers up: "
            + "; ".join(f"{slot_name(_slot(m.src))} → {slot_name(_slot(m.dst))}" for m in market_up)
            + "."
        )
    rest = [m for m in ms if m not in figures and m not in market_up and not _marker(m)]
    groups: dict[tuple[str, str], list[Move]] = {}
    for m in rest:
        groups.setdefault((m.src, m.dst), []).append(m)
    out += [_group(before, after, src, dst, g) for (src, dst), g in groups.items()]
    out += _markers(before, after, [m for m in ms if _marker(m)])
    mid = placed_by(before, action)
    out += [_death(before, after, m, mid) for m in deaths]
    return [s for s in out if s]


# --- figures ------------------------------------------------------------------------------


def _figure(st: GameState, m: Move) -> str:
    src, dst = place_words(st, m.src), place_words(st, m.dst)
    return f"Move {member_name(m.piece)} from {src} to {dst}."


def _slot(place: str) -> int:
    return int(place.split(":", 1)[1])


def _death(before: GameState, after: GameState, m: Move, mid: dict[str, Loc]) -> str:
    assert is_member(m.piece)  # ``moves_text`` picks the figures
    at = place_name(mid.get(m.piece, before.members[m.piece]))
    name = member_name(m.piece)
    if m.dst == zones.REMOVED:
        return (
            f"{name} dies at {at}: no chronicle space or grave is left, so the figure "
            "leaves the game."
        )
    return f"{name} dies at {at}: put it on {place_name(after.members[m.piece])}."


# --- markers ------------------------------------------------------------------------------


def _marker(m: Move) -> bool:
    return m.piece.startswith(("time marker:", "prestige marker:")) or (
        m.piece == "first-player token"
    )


def _markers(before: GameState, after: GameState, ms: list[Move]) -> list[str]:
    out: list[str] = []
    length = after.data.time_track_length
    for m in ms:
        if m.piece.startswith("time marker:"):
            c = m.piece.split(":", 1)[1]
            t0, t1 = int(m.src.rsplit(":", 1)[1]), int(m.dst.rsplit(":", 1)[1])
            name, spent = colour_name(c), t1 - t0
            left = length - t1 % length
            out.append(
                f"{name} moves the time marker {spent} space{'s' if spent != 1 else ''} "
                f"({left} to the bridge)."
            )
            crossed = t1 // length - t0 // length
            if crossed:
                out.append(
                    f"{name} passes the bridge: "
                    + ("a member" if crossed == 1 else f"{crossed} members")
                    + " of the oldest generation on the board or farm must die."
                )
    for m in ms:
        if m.piece.startswith("prestige marker:"):
            c = m.piece.split(":", 1)[1]
            p0, p1 = int(m.src.rsplit(":", 1)[1]), int(m.dst.rsplit(":", 1)[1])
            verb = "wins" if p1 > p0 else "loses"
            out.append(f"{colour_name(c)} {verb} {abs(p1 - p0)} prestige (now {p1}).")
    for m in ms:
        if m.piece == "first-player token":
            src, dst = m.src.split(":", 1)[1], m.dst.split(":", 1)[1]
            out.append(
                f"The first-player token goes from {colour_name(src)} to {colour_name(dst)}."
            )
    return out


# --- other pieces -------------------------------------------------------------------------


def _owner(st: GameState, place: str) -> str:
    """The colour whose farm (or a module's place of a colour) ``place`` is, else empty."""
    kind, detail = zones.split(place)
    owned = {"goods", "supply", "served"}.union(*(p.owned for p in st.rules.table_parts))
    return detail if kind in owned and detail else ""


def _group(before: GameState, after: GameState, src: str, dst: str, ms: list[Move]) -> str:
    things = join_words([piece_words(before, m) for m in ms])
    giver, taker = _owner(before, src), _owner(before, dst)
    parts = before.rules.table_parts
    returns = {zones.STOCK}.union(*(p.returns for p in parts))
    if ms[0].piece.startswith("travel marker:") and dst.startswith("city:"):
        who = colour_name(ms[0].piece.split(":", 1)[1])
        return f"{who} puts a travel marker on {city_name(dst[5:])}."
    kind = zones.split(dst)[0]
    told = next((p.sentences[kind] for p in parts if kind in p.sentences), None)
    if told is not None:
        return told(before, after, src, dst, ms)
    if dst.startswith("served:"):
        slot = place_words(before, src)
        return f"{colour_name(taker)} puts the customer from {slot} face down in front of them."
    if giver and (is_unlimited(dst) or dst in returns):
        return f"{colour_name(giver)} hands {things} back to {place_words(after, dst)}."
    if taker and (is_unlimited(src) or src in returns) and not any(kind in p.owned for p in parts):
        return f"{colour_name(taker)} gets {things} from {place_words(after, src)}."
    return f"Move {things} from {place_words(before, src)} to {place_words(after, dst)}."


def piece_words(st: GameState, m: Move) -> str:
    """The pieces of a move in words: ``2 green cubes``, ``the customer tile``, ``Red's ship``."""
    piece, n = m.piece, m.n
    if piece in ALL_MEMBERS:
        return member_name(piece)
    if piece.startswith("cube:"):
        return count(n, f"{piece[5:]} cube")
    if piece in PIECE_NOUNS:
        one, many = PIECE_NOUNS[piece]
        return count(n, one, many)
    if piece.startswith("ship:"):
        return f"{colour_name(piece[5:])}'s ship"
    if piece.startswith("travel marker:"):
        return count(n, f"{colour_name(piece.split(':', 1)[1])} travel marker")
    for parts in st.rules.table_parts:
        said = parts.piece_words(st, m)
        if said is not None:
            return said
    if piece in st.data.customers:
        return "the customer tile"
    return count(n, piece)


def place_words(st: GameState | None, place: str) -> str:
    """A place of ``moves.table`` in words: ``Red's farm``, ``the cube supply``, ``stall 2``,
    ``island B``, ``the tea bales on island E``… (``st`` gives the rule modules' places)."""
    kind, detail = zones.split(place)
    d = detail or ""
    for parts in st.rules.table_parts if st is not None else ():
        own = parts.place_words.get(place) or parts.place_words.get(kind)
        if own is not None:
            return own(st, d)
    words = {
        "goods": f"{colour_name(d)}'s farm",
        "supply": f"{colour_name(d)}'s farm",
        "farm": f"{colour_name(d)}'s farm",
        "unborn": f"beside {colour_name(d)}'s farm (unborn)",
        zones.STOCK: "the cube supply",
        zones.GREEN_BAG: "the green bag",
        BANK: "the bank",
        GENERAL: "the general supply",
        "markers": f"{colour_name(d)}'s travel markers",
        "customer_stack": "the customer stack",
        "served": f"{colour_name(d)}'s customers (face down)",
        "city": city_name(d),
        zones.GRAVES: "an anonymous grave",
    }
    if kind in words:
        return words[kind]
    if kind == "space":
        return f"the {SPACE_NAMES[Space(d)]} space"
    if kind == "market":
        return slot_name(int(d))
    if kind == "sea":
        return "the sea cemetery"
    return place_name((kind, detail if kind not in ("council", "church") else int(d)))


__all__ = ["moves_text", "piece_words", "place_words"]
