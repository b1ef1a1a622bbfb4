"""Readable text for a game: one line per action, with what changed that matters.

Used by ``companion replay`` (without ``--json``) and by the golden playthroughs under
``tests/golden/``.
"""

from __future__ import annotations

from typing import Any

from companion import village as v
from companion.village.narrate import narrate


def describe(action: dict[str, Any]) -> str:
    """One action in words, e.g. ``red takes brown from harvest``."""
    a = dict(action)
    kind = a.pop("type")
    who = a.pop("player", None)
    rest = " ".join(f"{k}={_short(val)}" for k, val in a.items() if val not in ({}, [], None))
    return f"{who or 'chance'} {kind}" + (f" {rest}" if rest else "")


def _short(value: Any) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}:{_short(x)}" for k, x in value.items() if x not in ({}, 0))
    if isinstance(value, list):
        return "+".join(str(x) for x in value)
    return str(value)


def line_state(st: v.GameState) -> str:
    """The families' tracks in one line: prestige, time, coins, grain, cubes, living."""
    s = v.summary(st)
    parts = []
    for color, p in s["players"].items():
        cubes = "".join(f"{k[0]}{n}" for k, n in p["cubes"].items() if n)
        parts.append(
            f"{color}: P{p['prestige']} T{p['time']} ${p['coins']} g{p['grain']} "
            f"[{cubes}] alive{p['living']}"
        )
    return " | ".join(parts)


def render(header: dict[str, Any], actions: list[dict[str, Any]], narration: bool = False) -> str:
    """The whole game as text: each action, the state line after it when it changed, and
    the final scores. With ``narration``, each action's table narration follows it (what
    ``companion replay`` prints; the golden files are without)."""
    st = v.start(header)
    out = [f"Village, players {' '.join(header['players'])}, first {header['first_player']}"]
    last = line_state(st)
    for i, obj in enumerate(actions, start=1):
        before_round = st.round
        before = st
        action = v.parse_action(obj)
        st = v.apply(st, action)
        out.append(f"{i:4d}. {describe(obj)}")
        if narration:
            out.extend(f"      » {line}" for line in narrate(before, action, st))
        now = line_state(st)
        if now != last:
            out.append(f"      {now}")
            last = now
        if st.round != before_round:
            out.append(f"== round {st.round} ==")
    s = v.summary(st)
    out.append(f"over={s['over']} cause={s['end']['cause']} winner={s['winner']}")
    for color, p in s["players"].items():
        sc = p["score"]
        out.append(
            f"{color}: "
            + " ".join(
                f"{k}={sc[k]}"
                for k in (
                    "travel",
                    "council",
                    "church",
                    "chronicle",
                    "customers",
                    "coins",
                    "final",
                    "total",
                )
            )
        )
    return "\n".join(out) + "\n"
