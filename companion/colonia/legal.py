"""The legal decisions now: a day loop's options for the player whose turn it is, the
mayor's decision on a tied vote. Reveals, card values, draws and sealed choices are not
listed here (the table reports them; `companion.colonia.game` gives their chance specs
and sealed choices)."""

from __future__ import annotations

from typing import Any

from .crafts import order_cost
from .state import State
from .vocabulary import CRAFTS, CURRENCIES, GOODS, RECIPE


def moves(st: State) -> list[dict[str, Any]]:
    """The record forms of the legal decisions."""
    if st.step == "mayor" and st.mayor is not None:
        return [{"type": "mayor_decides", "player": st.mayor, "adopt": v} for v in (True, False)]
    if st.step == "pick_good" and st.rolling:
        return [{"type": "pick_good", "player": st.rolling[0], "good": g} for g in GOODS]
    who = st.to_move()
    if who is None:
        return []
    seat = st.seat(who)
    out: list[dict[str, Any]] = []
    if st.step == "market":
        for i, (stall, b) in enumerate(zip(st.stalls, st.bought, strict=True)):
            if b is None and 0 < sum(stall) <= seat.reserve:
                out.append({"type": "buy_stall", "player": who, "stall": i + 1})
    elif st.step == "order":
        for k, craft in enumerate(CRAFTS):
            first, second, _ = RECIPE[craft]
            if (seat.material(first) and seat.material(second)
                    and seat.reserve >= order_cost(st.new_orders[k])):
                out.append({"type": "order", "player": who, "craft": craft})
    elif st.step == "load" and seat.reserve >= 1:
        for i, berth in enumerate(st.moorings):
            for h, (hold, taken) in enumerate(zip(berth.ship.holds, berth.loaded, strict=True)):
                need = [hold.goods.count(g) for g in GOODS]
                if taken is None and all(n <= have for n, have in zip(need, seat.goods,
                                                                       strict=True)):
                    out.append({"type": "load", "player": who, "ship": i + 1, "hold": h + 1})
            if st.extra_hold == st.week and berth.crest is None:
                out += [{"type": "load_extra", "player": who, "ship": i + 1, "good": g}
                        for g, have in zip(GOODS, seat.goods, strict=True) if have]
    elif st.step == "buy":
        mine = dict(seat.kept)
        for shown in st.display:
            r = shown.relic
            if seat.money[CURRENCIES.index(r.currency)] < r.price:
                continue
            out.append({"type": "buy_relic", "player": who, "card": r.name, "into": None})
            for other in seat.relics:
                if other.city != r.city or other.kind == r.kind:
                    continue
                box, relic = (r.name, other.name) if r.kind == "reliquary" else (
                    other.name, r.name)
                if box not in mine and relic not in mine.values():
                    out.append({"type": "buy_relic", "player": who, "card": r.name,
                                "into": other.name})
    elif st.step == "home":
        out += [{"type": "home", "player": who, "members": n}
                for n in range(1, min(3, seat.street(st.home_from)) + 1)]
    elif st.step == "exchange":
        out += [{"type": "exchange", "player": who, "give": g, "get": t, "amount": n}
                for g in CURRENCIES for t in CURRENCIES if g != t
                for n in range(1, min(5, seat.coins(g)) + 1)]
    elif st.step == "insure" and seat.reserve >= 1:
        out += [{"type": "insure", "player": who, "card": s.relic.name}
                for s in st.display if s.insured is None]
    out.append({"type": "pass", "player": who})
    return out
