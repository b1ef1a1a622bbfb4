"""What each viewer sees. Behind a player's screen (materials, goods, money per currency,
relic cards) only that player sees, with what their relics would score now; the table sees
the streets, stalls, order columns, ships, the relic display and the order stack, and the
screens only once the game is over, with every score and its reasons."""

from __future__ import annotations

from typing import Any

from .final import final_scoring
from .score import places, score
from .state import Seat, State
from .vocabulary import CRAFTS, CURRENCIES, GOODS, MATERIALS, STREETS


def _public_seat(seat: Seat) -> dict[str, Any]:
    return {"color": seat.color, "reserve": seat.reserve,
            "streets": dict(zip(STREETS, seat.streets, strict=True)),
            "family_cards_left": list(seat.cards), "card": seat.card,
            "votes": seat.votes if seat.card is not None else None,
            "reliquaries": [{"reliquary": b, "relic": r} for b, r in seat.kept]}


def screen(st: State, seat: Seat) -> dict[str, Any]:
    """What stands behind ``seat``'s screen, and what it scores now."""
    s = score(st, seat.color)
    return {"materials": dict(zip(MATERIALS, seat.materials, strict=True)),
            "goods": dict(zip(GOODS, seat.goods, strict=True)),
            "money": dict(zip(CURRENCIES, seat.money, strict=True)),
            "relics": [{"name": r.name, "city": r.city, "kind": r.kind, "vp": r.vp}
                       for r in seat.relics],
            "score": {"relics": s.relics, "doubled": s.doubled, "windows": list(s.windows),
                      "window_vp": s.window_vp, "total": s.total}}


def board(st: State) -> dict[str, Any]:
    """Everything on the table in sight of all."""
    card = st.week_card
    return {
        "game": "colonia", "house_rules": sorted(st.house), "week": st.week, "day": st.day,
        "step": st.step,
        "order": list(st.order), "mayor": st.mayor,
        # materials left the bag behind a screen: only its count is public until the end
        "bag": dict(zip(MATERIALS, st.bag, strict=True))
        if not st.unseen or st.step == "over" else None,
        "bag_count": sum(st.bag), "bag_unseen": st.unseen,
        "supply": dict(zip(GOODS, st.supply, strict=True)),
        "week_card": None if card is None else {
            "stalls": list(card.stalls), "orders": dict(card.orders), "dice": card.dice,
            "ships": card.ships},
        "stalls": [{"materials": dict(zip(MATERIALS, s, strict=True)),
                    "bought_by": None if b is None else b[0]}
                   for s, b in zip(st.stalls, st.bought, strict=True)],
        "crafts": [{"craft": c, "stick": st.sticks[k], "orders_this_week": st.new_orders[k],
                    "column": [{"player": o.player, "members": o.members}
                               for o in st.columns[k]]} for k, c in enumerate(CRAFTS)],
        "moorings": [{"ship": b.ship.name, "city": b.ship.city, "currency": b.ship.currency,
                      "holds": [{"goods": list(h.goods), "value": h.value, "loaded_by": w}
                                for h, w in zip(b.ship.holds, b.loaded, strict=True)],
                      "extra_hold": {"value": 2, "loaded_by": b.crest}
                      if st.extra_hold == st.week or b.crest else None}
                     for b in st.moorings],
        "leaving": st.leaving,
        "display": [{"name": s.relic.name, "city": s.relic.city, "kind": s.relic.kind,
                     "price": s.relic.price, "currency": s.relic.currency, "vp": s.relic.vp,
                     "insured_by": s.insured} for s in st.display],
        "decrees": [{"name": v.decree.name, "day": v.decree.day, "text": v.decree.text,
                     "effect": v.decree.effect, "adopted": v.adopted} for v in st.decrees],
        "one_member_less": st.fewer == st.week,
        "asking": None if st.asking is None else st.cards.question(*st.asking),
        "players": [_public_seat(s) for s in st.seats],
    }


def view(st: State, viewer: str) -> dict[str, Any]:
    """The board; for a player, their own screen too; at the end, every screen and the
    places."""
    out = board(st)
    if st.step == "over":
        for p in out["players"]:
            p["screen"] = screen(st, st.seat(p["color"]))
        out["places"] = places(st)
        out["final"] = final_scoring(st)
    elif viewer in st.players and st.seats:
        out["screen"] = screen(st, st.seat(viewer))
    return out


def summary(st: State) -> dict[str, Any]:
    """Everything, every screen included."""
    out = board(st)
    for p in out["players"]:
        p["screen"] = screen(st, st.seat(p["color"]))
    return out
