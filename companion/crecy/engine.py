"""Crecy's rules as functions of a state: `apply`, `legal_options`, `pending`,
`chance_spec`. One way for a state to change: an action (its record form), checked, applied
to a copy. Refusals name the rule (`companion.games.errors`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.cards import ANSWER, parse_answer
from companion.games.chance import ChanceSpec
from companion.games.errors import IllegalAction, MalformedAction

from . import board, draws, flow, marriage, steps
from . import mentor as mentors
from .box import FRIEND, MENTOR, MISSION, check_friend, check_mentor
from .family import of_generation
from .state import Player, State, Step
from .vocabulary import COLOUR_OF

FIELDS: dict[str, tuple[str, ...]] = {
    "marry": ("player", "member", "friend", "pawn"),
    "arrange": ("player", "member", "friend", "pawn"),
    "have_child": ("player", "member", "sex", "pawn"),
    "ask_money": ("player", "gold", "pawn"),
    "connections": ("player", "cards", "pawn"),
    "title": ("player", "title", "member", "pawn"),
    "contribute": ("player", "contribution", "member", "pawn"),
    "fertility": ("player", "member", "pawn"),
    "residence": ("player", "member", "pawn"),
    "enterprise": ("player", "member", "pawn"),
    "mission": ("player", "pawn"),
    "pass": ("player",),
    "take_friend": ("player", "friend"),
    "friends_from_deck": ("player",),
    "discard": ("player", "friend"),
    "ask_money_free": ("player", "gold"),
    "swap": ("player", "friend"),
    "choose_child": ("player", "card"),
    "complication": ("player", "choice"),
    "formalise": ("player", "member"),
    "keep_hand": ("player", "redraw"),
    "keep_mission": ("player", "mission"),
    "mentor_score": ("player", "main", "secondary"),
    "child_drawn": ("card",),
    "friend_drawn": ("name", "to"),
    "mission_drawn": ("name",),
    "mentor_dealt": ("player", "mentor"),
    "extra_dealt": ("player", "colour"),
    ANSWER: ("card_type", "card", "values"),
    "adjust": ("player", "gold", "income", "prestige", "honour", "note"),
    "validate_mission": ("player", "mission", "honour"),
}
"""Every action's record fields (``type`` besides)."""

OPTIONAL = {ANSWER: ("hand",), "child_drawn": ("effect",),
            "adjust": ("gold", "income", "prestige", "honour", "note")}
"""Fields an action may leave out; an answer's ``hand``: the friend card is of that
player's hand, answered on their phone (`views.secret_answer`)."""
TURNS = {"marry", "arrange", "pass", *board.CHECKS}
ANYTIME = {ANSWER, "adjust", "validate_mission"}
CHANCE = {"child_draw": "child_drawn", "friend_draw": "friend_drawn",
          "mission_draw": "mission_drawn", "mentor_deal": "mentor_dealt",
          "extra_deal": "extra_dealt"}
INSTEAD = {"friends_from_deck": "take_friend"}
"""A decision that may answer a step of another kind (Roger: draw instead of taking)."""
DECISIONS = {"take_friend", "discard", "ask_money_free", "swap", "choose_child", "complication",
             "formalise",
             "keep_hand", "keep_mission", "mentor_score"}


@dataclass(frozen=True, slots=True)
class Pending:
    """What the game waits for: ``kind``, who decides (None: a draw, the table's answer
    to a card's form, or the end) and details."""

    kind: str
    player: str | None
    detail: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, **self.detail}


def parse(obj: Any) -> dict[str, Any]:
    """The record form of an action, its fields checked. Raises MalformedAction."""
    if not isinstance(obj, dict):
        raise MalformedAction(f"an action is a JSON object, got {obj!r}")
    kind = obj.get("type")
    fields = FIELDS.get(str(kind)) if isinstance(kind, str) else None
    if fields is None:
        raise MalformedAction(f"unknown action type {kind!r}; known: {sorted(FIELDS)}")
    record = {k: v for k, v in obj.items() if not k.startswith("_")}
    keys = record.keys()
    if keys == _EXACT[str(kind)]:
        return record
    optional = set(OPTIONAL.get(str(kind), ()))
    missing = sorted(set(fields) - set(record) - optional)
    extra = sorted(set(record) - set(fields) - optional - {"type"})
    if missing or extra:
        raise MalformedAction(f"{kind}: missing field(s) {missing}, unexpected {extra}")
    return record


_EXACT = {k: frozenset((*f, "type")) for k, f in FIELDS.items()}


# --- what the game waits for --------------------------------------------------------------


def pending(st: State) -> Pending:
    if st.phase == "over":
        return Pending("over", None, {"winner": list(st.winner)})
    needed = flow.needs(st)
    if needed:
        return Pending("learn", None, {"question": st.book.question(*needed[0])})
    if st.todo:
        step = st.todo[0]
        detail = {("for" if k == "player" else k): v for k, v in step.data.items()
                  if k != "drawn"}  # a draw's "player" is whom it is for: "for"
        if step.kind == "keep_mission":
            detail["drawn"] = list(step.data["drawn"])
        return Pending(step.kind, step.player if step.kind not in CHANCE else None, detail)
    return Pending("turn", st.players[st.turn].id, {"generation": st.gen, "round": st.round})


def is_chance(st: State) -> bool:
    return pending(st).kind in CHANCE


def is_over(st: State) -> bool:
    return st.phase == "over"


def chance_spec(st: State) -> ChanceSpec | None:
    """The virtual draws: a child card (the deck's composition is known) and the extra
    pawns of a generation's start. Friend, mission and mentor cards are drawn by hand and
    reported by name (their names are printed, not known here)."""
    kind = pending(st).kind
    if kind == "child_draw":
        cards = draws.child_cards(st)
        contents = tuple(c for c, n in sorted(cards.items()) for _ in range(n))
        return ChanceSpec("child", contents, 1, (), outcome=lambda s, d: {
            "type": "child_drawn", "card": d[0]}) if contents else None
    if kind == "extra_deal":
        who = st.todo[0].data["player"]
        colours = tuple(flow.extra_colours(st))
        return ChanceSpec("extra", colours, 1, (who,), outcome=lambda s, d: {
            "type": "extra_dealt", "player": s.slots[0], "colour": d[0]}) if colours else None
    return None


# --- applying -----------------------------------------------------------------------------


def apply(st: State, obj: Any) -> State:
    """The state after the action ``obj`` (its record form). Raises MalformedAction,
    IllegalAction (the state given is never changed)."""
    a = parse(obj)
    new = st.copy()
    kind = a["type"]
    if kind in ANYTIME:
        _anytime(new, a)
    else:
        _waited(new, a)
    settle(new)
    return new


def _anytime(st: State, a: dict[str, Any]) -> None:
    if a["type"] == ANSWER:
        kind, card, values = parse_answer(a)
        if "hand" in a and (kind != FRIEND.name or card not in _player(
                st, {**a, "player": a["hand"]}).hand):
            raise IllegalAction(f"illegal: {a!r} — {card} is not a friend card of "
                                f"{a['hand']}'s hand", code="not_held")
        st.book = st.book.learn(kind, card, values)  # the fields' kinds checked first
        if kind == FRIEND.name:
            check_friend(card, dict(st.book.learned[(kind, card)]))
        if kind == MENTOR.name:
            check_mentor(card, dict(st.book.learned[(kind, card)]))
        st.book_version += 1
        return
    p = _player(st, a)
    if a["type"] == "validate_mission":
        if a["mission"] not in p.missions:
            raise IllegalAction(f"illegal: {a!r} — {a['mission']} is not one of "
                                f"{p.id}'s missions face up", code="not_held")
        if not isinstance(a["honour"], int):
            raise MalformedAction(f"{a!r}: honour is a number")
        reward = _mission_reward(st, a)
        if reward == "contributions_4_less":
            p.effects.append(reward)
        p.missions.remove(a["mission"])
        p.missions_done.append(a["mission"])
        p.honour += a["honour"]
        return
    change = {k: a.get(k) or 0 for k in ("gold", "income", "prestige", "honour")}
    if not all(isinstance(v, int) for v in change.values()):
        raise MalformedAction(f"{a!r}: corrections are whole numbers")
    if p.gold + change["gold"] < 0:
        raise IllegalAction(f"illegal: {a!r} — gold cannot go below 0", code="gold")
    p.gold += change["gold"]
    p.income += change["income"]
    p.prestige += change["prestige"]
    p.honour += change["honour"]


def _mission_reward(st: State, a: dict[str, Any]) -> str:
    """The reward the engine applies for a mission validated (« Cartes mission »): a
    mission the seed explains must be known (its form answered) first; another one's
    reward is the table's to apply with corrections. Raises IllegalAction."""
    key = (MISSION.name, a["mission"])
    if key not in st.book.shipped and key not in st.book.learned:
        return "none"
    values = st.book.values(*key)
    if values is None:
        raise IllegalAction(f"illegal: {a!r} — what is printed on {a['mission']} is not "
                            "known yet: answer the card's form first", code="unknown_card")
    return str(values["effect"])


def _player(st: State, a: dict[str, Any]) -> Player:
    try:
        return st.player(a["player"])
    except KeyError:
        raise IllegalAction(f"illegal: {a!r} — no player {a['player']!r}",
                            code="no_player") from None


def _waited(st: State, a: dict[str, Any]) -> None:
    now = pending(st)
    kind = a["type"]
    if now.kind == "over":
        raise IllegalAction(f"illegal: {a!r} — the game is over", code="over")
    if now.kind == "learn":
        q = now.detail["question"]
        raise IllegalAction(f"illegal: {a!r} — first, {q['question']}", code="learn")
    if now.kind in CHANCE:
        if kind != CHANCE[now.kind]:
            raise IllegalAction(f"illegal: {a!r} — the game waits for a draw "
                                f"({CHANCE[now.kind]})", code="not_now")
        step = st.todo[0]
        {"child_draw": steps.on_child, "friend_draw": steps.on_friend,
         "mission_draw": steps.on_mission_drawn, "mentor_deal": steps.on_mentor,
         "extra_deal": steps.on_extra}[now.kind](st, step, a)
        return
    if now.kind != "turn" and kind != now.kind and INSTEAD.get(kind) != now.kind:
        raise IllegalAction(f"illegal: {a!r} — the game waits for {now.kind} by "
                            f"{now.player}", code="not_now")
    if now.kind == "turn" and kind not in TURNS:
        raise IllegalAction(f"illegal: {a!r} — it is {now.player}'s turn", code="not_now")
    if a["player"] != now.player:
        raise IllegalAction(f"illegal: {a!r} — it is {now.player}'s to decide",
                            code="not_your_turn")
    p = st.player(a["player"])
    if now.kind == "turn":
        _turn(st, p, a)
        return
    step = st.todo[0]
    if kind == "formalise":
        marriage.formalise(st, p, a)
        if not any(m.arranged for m in of_generation(p, st.gen)):
            st.todo.remove(step)
        return
    {"take_friend": steps.on_take_friend, "friends_from_deck": steps.on_friends_from_deck,
     "discard": steps.on_discard,
     "ask_money_free": steps.on_ask_money_free, "swap": steps.on_swap,
     "choose_child": steps.on_choose_child,
     "complication": steps.on_complication,
     "keep_hand": steps.on_keep_hand, "keep_mission": steps.on_keep_mission,
     "mentor_score": steps.on_mentor_score}[kind](st, step, p, a)


def _turn(st: State, p: Player, a: dict[str, Any]) -> None:
    kind = a["type"]
    if kind == "pass":
        if p.pawns > 0:
            raise IllegalAction(f"illegal: {a!r} — a player with a player pawn must play it "
                                "(« Phase d'actions »)", code="must_play")
        p.passed = True
    elif kind in ("marry", "arrange"):
        marriage.marry(st, p, a, kind == "arrange")
    else:
        check, do = board.CHECKS[kind]
        check(st, p, a)
        do(st, p, a)
    st.turn = (st.turn + 1) % len(st.players)


def settle(st: State) -> None:
    """Run what needs nobody (automatic steps, empty draws, the round's end) until the
    game waits for a person, a draw or a card's values."""
    _settle(st)
    flow.hold_tracks(st)


def _settle(st: State) -> None:
    while st.phase != "over" and not flow.note_needs(st):
        flow.hold_tracks(st)  # before a generation's end turns prestige into honour
        if st.todo:
            step = st.todo[0]
            if step.kind in steps.AUTO:
                st.todo.pop(0)
                steps.AUTO[step.kind](st)
            elif step.kind == "marriage_rest":
                st.todo.pop(0)
                marriage.rest_of_marriage(st, step)
            elif step.kind == "friend_draw" and not _spent(st, step):
                draws.reshuffle_if_empty(st)
                return
            elif _spent(st, step):
                st.todo.pop(0)
                st.child_discard += len(step.data.get("pair", ()))  # no deck left to pair
                if step.kind == "take_friend":
                    draws.after_taking(st, st.player(step.player or ""))
            else:
                return
            continue
        if st.phase == "final":
            flow.finish(st)
            return
        if st.phase != "actions":
            return
        if all(flow.done(st, p) or not _can_act(st, p) for p in st.players):
            flow.end_round(st)
            continue
        while flow.done(st, st.players[st.turn]) or not _can_act(st, st.players[st.turn]):
            st.turn = (st.turn + 1) % len(st.players)
        return


def _spent(st: State, step: Step) -> bool:
    left = step.data.get("left", 1)
    if step.kind == "friend_draw":
        return left <= 0 or draws.friends_left(st) == 0
    if step.kind == "take_friend":
        return left <= 0 or not draws.takeable(st, step)
    if step.kind == "child_draw":
        return left <= 0 or not draws.child_cards(st)
    if step.kind == "extra_deal":
        return not flow.extra_colours(st)
    return False


def _can_act(st: State, p: Player) -> bool:
    """A player with a player pawn always can (asking for 2 gold costs nothing); with
    extra pawns only, while one of their actions is open (or they may pass); with none,
    a marriage without a pawn under the house rule (`flow.done`)."""
    return p.pawns > 0 or bool(p.extra) or not flow.done(st, p)


# --- legal options ------------------------------------------------------------------------


def legal_options(st: State) -> list[dict[str, Any]]:
    """Every legal decision now, as record forms ([] at a draw, a card's form, the mentor
    count — a form of numbers — and the end)."""
    now = pending(st)
    if now.kind in ("turn",):
        return _turn_options(st, st.players[st.turn])
    if now.kind not in DECISIONS:
        return []
    p = st.player(now.player or "")
    if now.kind == "mentor_score":
        count = mentors.score(st.book, p)  # unknown: the table types the count
        return [] if count is None else [
            {"type": "mentor_score", "player": p.id, "main": count.main,
             "secondary": sorted(count.best(), reverse=True)}]
    step = st.todo[0]
    if now.kind == "take_friend":
        deck = [{"type": "friends_from_deck", "player": p.id}] if steps.may_draw_instead(
            step, p) else []
        return [{"type": "take_friend", "player": p.id, "friend": f}
                for f in dict.fromkeys(draws.takeable(st, step))] + deck
    if now.kind == "choose_child":
        return [{"type": "choose_child", "player": p.id, "card": c}
                for c in dict.fromkeys(x[0] for x in step.data["pair"])]
    if now.kind == "swap":
        return [{"type": "swap", "player": p.id, "friend": f}
                for f in [*dict.fromkeys(p.hand), None]]
    if now.kind == "ask_money_free":
        return [{"type": "ask_money_free", "player": p.id, "gold": g}
                for g in (2, 3, 4) if g < 4 or p.hand]
    if now.kind == "discard":
        return [{"type": "discard", "player": p.id, "friend": f} for f in dict.fromkeys(p.hand)]
    if now.kind == "complication":
        out = [{"type": "complication", "player": p.id, "choice": "lose_child"}]
        if not step.data.get("head"):
            out.append({"type": "complication", "player": p.id, "choice": "lose_mother"})
        return out
    if now.kind == "formalise":
        return [{"type": "formalise", "player": p.id, "member": m.id}
                for m in of_generation(p, st.gen) if m.arranged]
    if now.kind == "keep_hand":
        return [{"type": "keep_hand", "player": p.id, "redraw": r} for r in (False, True)]
    return [{"type": "keep_mission", "player": p.id, "mission": m}
            for m in step.data["drawn"]]


def _turn_options(st: State, p: Player) -> list[dict[str, Any]]:
    out = marriage.marriage_options(st, p, False) + marriage.marriage_options(st, p, True)
    gen = of_generation(p, st.gen)
    members = [m.id for m in gen]
    couples = [m.id for m in gen if m.couple()]

    sieve = {kind: [] if kind in st.occupied else  # a cheap first sieve; the checks decide
             (["player"] if p.pawns > 0 else []) + (["extra"] if c in p.extra else [])
             for kind, c in COLOUR_OF.items()}

    def pawns(kind: str) -> list[str]:
        return sieve[kind]

    mine = ["player"] if p.pawns > 0 else []
    candidates: list[dict[str, Any]] = []
    for mid in couples if mine else []:
        for sex in (None, "female", "male"):
            candidates.append({"type": "have_child", "member": mid, "sex": sex,
                               "pawn": "player"})
    if mine:
        candidates += [{"type": "ask_money", "gold": g, "pawn": "player"} for g in (2, 3, 4)]
        candidates += [{"type": "connections", "cards": n, "pawn": "player"}
                       for n in (1, 2, 3)]
    for kind, offer in (("title", st.titles), ("contribute", st.contributions)):
        field = "title" if kind == "title" else "contribution"
        for name in offer if pawns(kind) else []:
            values = st.book.values("crecy." + field, name)
            if values is None or board.card_gold(p, kind, values) > p.gold:
                continue
            candidates += [{"type": kind, field: name, "member": mid, "pawn": pw}
                           for mid in members for pw in pawns(kind)]
    for kind, who in (("fertility", couples), ("residence", members),
                      ("enterprise", members)):
        candidates += [{"type": kind, "member": mid, "pawn": pw}
                       for pw in pawns(kind) for mid in who]
    candidates += [{"type": "mission", "pawn": pw} for pw in pawns("mission")]
    for c in candidates:
        a = {**c, "player": p.id}
        try:
            board.CHECKS[a["type"]][0](st, p, a)
        except IllegalAction:
            continue
        out.append(a)
    if p.pawns == 0:
        out.append({"type": "pass", "player": p.id})
    return out


def end_round(st: State) -> State:
    """The state after the round's end (income, upkeep, a generation's end), settled."""
    new = st.copy()
    flow.end_round(new)
    settle(new)
    return new
