"""Plays a Crecy game on a running server up to a position, as the table and the phones
would (the table's actions with the table token, a player's own steps from their phone,
``/api/own`` with their token), so a browser test takes only the steps it is about. The
server's own state (the app runs in this process) says what is waited for; the choices
are plain (marry the head, have a child, ask for 2 gold, pass) unless ``choose`` says."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from browserkit import TOKEN, Server

from companion.crecy import engine, flow, phone
from companion.crecy.state import State

Action = dict[str, Any]


class Drive:
    """One game on ``server``: ``tokens`` (each player's), names for the cards drawn by hand
    (a hand's friends are of the sex its head marries: ``Sieur n`` / ``Dame n``)."""

    def __init__(self, server: Server, names: dict[str, list[str]] | None = None) -> None:
        self.server = server
        self.tokens = _tokens(server)
        self.n = 0
        self.names = {k: list(v) for k, v in (names or {}).items()}
        """Names to draw first, by where they go (a colour, ``display``, ``mission``)."""
        self.effects: list[str] = []
        """Printed effects of the next child cards drawn (then none)."""

    def state(self) -> State:
        return self.server.service.state()  # type: ignore[no-any-return]

    def send(self, a: Action) -> None:
        """``a`` from its owner's phone, or from the table. Raises AssertionError when
        refused."""
        st = self.state()
        owner = next((p.id for p in st.players if phone.owns(st, p.id, a)), None)
        if owner is None:
            req = urllib.request.Request(
                f"{self.server.url}/api/actions", data=json.dumps(a).encode(),
                headers={"Content-Type": "application/json",
                         "Authorization": f"Bearer {TOKEN}"})
        else:
            req = urllib.request.Request(
                f"{self.server.url}/api/own?token={self.tokens[owner]}",
                data=json.dumps({"player": owner, "action": a}).encode(),
                headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=5):
                pass
        except urllib.error.HTTPError as exc:
            raise AssertionError(f"{a} refused: {exc.read()!r}") from None

    def until(self, done: Callable[[State], bool],
              choose: Callable[[State], Action | None] = lambda st: None,
              limit: int = 400) -> State:
        """Play until ``done(state)``; ``choose`` may pick an action (None: the plain one)."""
        for _ in range(limit):
            st = self.state()
            if done(st):
                return st
            self.send(choose(st) or self.plain(st))
        raise AssertionError(f"not reached in {limit} actions: {engine.pending(st)}")

    def _name(self, where: str, default: str) -> str:
        queue = self.names.get(where)
        if queue:
            return queue.pop(0)
        self.n += 1
        return f"{default} {self.n}"

    def plain(self, st: State) -> Action:
        now = engine.pending(st)
        d = now.detail
        if now.kind == "learn":
            q = d["question"]
            return {"type": "card_values", "card_type": q["card_type"], "card": q["card"],
                    "values": answer(q)}
        if now.kind == "child_draw":
            out: Action = {"type": "child_drawn", "card": "boy"}
            if self.effects:
                out["effect"] = self.effects.pop(0)
            return out
        if now.kind == "friend_draw":
            to = d["to"]
            if to == "display":
                return {"type": "friend_drawn", "name": self._name("display", "Dame"),
                        "to": to}
            head = st.player(to).family[0]
            word = "Sieur" if head.sex == "female" else "Dame"
            return {"type": "friend_drawn", "name": self._name(to, word), "to": to}
        if now.kind == "mission_draw":
            return {"type": "mission_drawn", "name": self._name("mission", "Mission")}
        if now.kind == "mentor_deal":
            return {"type": "mentor_dealt", "player": d["for"],
                    "mentor": self._name("mentor", "Mentor")}
        if now.kind == "extra_deal":
            return {"type": "extra_dealt", "player": d["for"],
                    "colour": flow.extra_colours(st)[0]}
        if now.kind == "mentor_score":
            return (engine.legal_options(st) or [
                {"type": "mentor_score", "player": now.player, "main": 0, "secondary": []}])[0]
        if now.kind == "turn":  # the hand's cards told on the phone before any is played
            unknown = phone.unknown_cards(st, str(now.player))
            if unknown:
                return {"type": "card_values", "card_type": "crecy.friend",
                        "card": unknown[0], "hand": now.player,
                        "values": answer(st.book.question("crecy.friend", unknown[0]))}
        options = engine.legal_options(st)
        for kind in ("marry", "have_child", "ask_money", "pass"):
            found = [a for a in options if a["type"] == kind
                     and a.get("member", "head") == "head" and a.get("sex") is None
                     and a.get("gold", 2) == 2 and a.get("pawn", "player") == "player"]
            if found:
                return found[0]
        return options[0]


def answer_friend(name: str) -> dict[str, Any]:
    """A friend card's values: a ``Dame`` is a woman, anyone else a man; nothing special."""
    return {"sex": "female" if name.startswith(("Dame", "Ami")) else "male",
            "nationality": "French", "activity": "artist", "gold": 0, "income": 1,
            "friends": 0, "prestige": 1, "effect": "none"}


def answer(q: dict[str, Any]) -> dict[str, Any]:
    """Values that fit a card's form: what the box knows, else plain ones."""
    if q["card_type"] == "crecy.friend":
        return {**answer_friend(q["card"]), **{k: v for k, v in q["known"].items()
                                               if v is not None}}
    if q["card_type"] == "crecy.head":
        return {"income": 2, "gold": 8, "friends": 3, "prestige": 0, "extra": "none"}
    if q["card_type"] == "crecy.generation":
        return {f: f"{'Titre' if f.startswith('title') else 'Contribution'} {q['card']}."
                   f"{f[-1]}" for f in (x["name"] for x in q["fields"])}
    if q["card_type"] == "crecy.board":
        return {"income_min": -5, "income_max": 20, "prestige_min": -10, "prestige_max": 30}
    out: dict[str, Any] = {}
    for f in q["fields"]:
        known = q["known"].get(f["name"])
        if known is not None:
            out[f["name"]] = known
        elif f["optional"]:
            out[f["name"]] = None
        elif f["kind"] == "choice":
            out[f["name"]] = f["choices"][0]
        else:
            out[f["name"]] = max(f.get("low", 0), 0) if f["kind"] == "int" else "?"
    return out


def _tokens(server: Server) -> dict[str, str]:
    req = urllib.request.Request(server.url + "/api/tokens",
                                 headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(req, timeout=5) as r:
        return {c: v["token"] for c, v in json.loads(r.read())["players"].items()}
