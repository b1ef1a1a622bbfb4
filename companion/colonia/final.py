"""The final scoring told line by line (seed 004, « Fin du jeu et décompte »): each
currency's stained glass with everyone's money and why it goes (or not), each player's
relics, reliquaries and windows, and the places with the tie-breaks that settled them.
Only at the end: before, behind the screens is private (`companion.colonia.views`)."""

from __future__ import annotations

from typing import Any

from companion.games.words import join_words

from .score import places, score
from .scoring import Score
from .state import State
from .vocabulary import CURRENCIES
from .words import name

TIE_BREAKS = (("money_left", "money left"), ("goods", "goods"), ("materials", "materials"))
"""After the points, in order (« En cas d'égalité … »)."""


def _window(st: State, i: int) -> tuple[dict[str, Any], str]:
    currency = CURRENCIES[i]
    money = {p: st.end_money[k][i] for k, p in enumerate(st.players)} if st.end_money else {}
    winner = dict(st.windows).get(currency)
    counts = ", ".join(f"{name(p)} {n}" for p, n in sorted(money.items(), key=lambda x: -x[1]))
    vp = st.setup.stained_glass_vp if st.setup is not None else 0
    if winner is not None:
        kept = "stained_glass_keeps_money" in st.house
        why = (f"{name(winner)} has the strict majority and wins the window ({vp} VP); "
               + ("keeps the money (house rule)." if kept
                  else f"the {money.get(winner, 0)} {currency} go to the bank."))
    elif money and max(money.values()) > 0:
        top = max(money.values())
        tied = [name(p) for p, n in money.items() if n == top]
        why = f"{join_words(tied)} tie at {top}: nobody wins this window."
    else:
        why = "nobody has any: nobody wins this window."
    line = f"Stained glass, {currency}: {counts or 'no money counted'} — {why}"
    return {"currency": currency, "money": money, "winner": winner, "vp": vp if winner else 0,
            "line": line}, line


def _player(st: State, s: Score) -> tuple[dict[str, Any], str]:
    seat = st.seat(s.color)
    kept = dict(seat.kept)
    inside = {r: b for b, r in kept.items()}
    relics = [{"name": r.name, "city": r.city, "vp": r.vp, "reliquary": inside.get(r.name),
               "points": r.vp * (2 if r.name in inside else 1)}
              for r in seat.relics if r.kind == "relic"]
    empty = [b for b in (r.name for r in seat.relics if r.kind == "reliquary") if b not in kept]
    alone = ", ".join(f"{r['name']} {r['vp']}" for r in relics if not r["reliquary"])
    doubled = ", ".join(f"{r['name']} {r['vp']}×2 in {r['reliquary']}"
                        for r in relics if r["reliquary"])
    parts = [f"relics {s.relics}" + (f" ({alone})" if alone else ""),
             f"in reliquaries {s.doubled}" + (f" ({doubled})" if doubled else ""),
             f"stained glass {s.window_vp}" + (f" ({', '.join(s.windows)})" if s.windows else "")]
    empties = f"; empty reliquaries score 0 ({', '.join(empty)})" if empty else ""
    line = f"{name(s.color)}: {' + '.join(parts)} = {s.total} VP{empties}."
    return {"color": s.color, "relics": relics, "empty_reliquaries": empty,
            "relic_points": s.relics, "doubled": s.doubled, "windows": list(s.windows),
            "window_vp": s.window_vp, "total": s.total, "money_left": s.money_left,
            "goods": s.goods, "materials": s.materials, "line": line}, line


def _place_line(rank: int, group: list[str], scores: dict[str, Score]) -> str:
    first = scores[group[0]]
    who = join_words([name(p) for p in group])
    if len(group) > 1:
        return (f"{rank}. {who}, {first.total} VP, equal on money left, goods and materials: "
                "they share the place.")
    return f"{rank}. {who}, {first.total} VP."


def _why_apart(a: Score, b: Score) -> str | None:
    """Why ``a`` is ahead of ``b`` when their points are equal (None: not equal)."""
    if a.total != b.total:
        return None
    for field, words in TIE_BREAKS:
        x, y = getattr(a, field), getattr(b, field)
        if x != y:
            return (f"{name(a.color)} ahead of {name(b.color)} at {a.total} VP on {words} "
                    f"({x} to {y}).")
    return None


def final_scoring(st: State) -> dict[str, Any] | None:
    """The final scoring with its reasons and its lines in order (None before the end)."""
    if st.step != "over":
        return None
    windows, lines = [], []
    for i in range(len(CURRENCIES)):
        w, line = _window(st, i)
        windows.append(w)
        lines.append(line)
    scores = {p: score(st, p) for p in st.players}
    players = []
    for p in st.players:
        row, line = _player(st, scores[p])
        players.append(row)
        lines.append(line)
    ranked = places(st)
    rank = 1
    for k, group in enumerate(ranked):
        lines.append(_place_line(rank, group, scores))
        if k + 1 < len(ranked):
            why = _why_apart(scores[group[-1]], scores[ranked[k + 1][0]])
            if why:
                lines.append(f"   {why}")
        rank += len(group)
    return {"windows": windows, "players": players, "places": ranked, "lines": lines}
