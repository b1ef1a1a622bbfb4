"""The steps a Crecy game waits for besides a turn: taking friends from the display, a
complication's choice, formalising arranged marriages, keeping a hand or a mission, the
final mentor count; and the draws (child, friend, mission, mentor, extra pawn), each an
action carrying its outcome. Each ``on_*`` changes the copy it is given or raises
IllegalAction (then the copy is thrown away)."""

from __future__ import annotations

from typing import Any

from companion.games.errors import IllegalAction

from . import board, draws, flow, marriage, mentor
from .box import FRIEND, HEAD
from .solo import REMOVED_MISSIONS
from .state import Member, Player, State, Step
from .vocabulary import CHILD_CARDS, CHILD_EFFECTS, DISPLAY


def refuse(a: dict[str, Any], why: str, code: str) -> IllegalAction:
    return IllegalAction(f"illegal: {a!r} — {why}", code=code)


def on_take_friend(st: State, step: Step, p: Player, a: dict[str, Any]) -> None:
    if a["friend"] not in st.display:
        raise refuse(a, f"{a['friend']} is not on display", "not_on_display")
    sex = step.data.get("sex")
    if sex and a["friend"] not in draws.takeable(st, step):
        raise refuse(a, f"Don Juan takes a woman from the display; {a['friend']} is not "
                     "one (« Cartes enfant »)", "sex")
    step.data["taken"] = step.data.get("taken", 0) + 1
    st.display.remove(a["friend"])
    p.hand.append(a["friend"])
    step.data["left"] -= 1
    if step.data["left"] > 0 and not st.display:
        draws.queue_friend_draws(st, min(DISPLAY, draws.friends_left(st)), "display")
        return
    if step.data["left"] <= 0:
        st.todo.remove(step)
        draws.after_taking(st, p)


def may_draw_instead(step: Step, p: Player) -> bool:
    """Roger: friend cards about to be taken may all come from the deck instead, decided
    before the first is taken (« Précisions sur les cartes », Roger)."""
    return ("friends_from_deck" in p.effects and not step.data.get("sex")
            and not step.data.get("taken"))


def on_friends_from_deck(st: State, step: Step, p: Player, a: dict[str, Any]) -> None:
    if not may_draw_instead(step, p):
        raise refuse(a, "friend cards are drawn from the deck instead of the display only "
                     "with Roger this generation, and all or none (« Précisions sur les "
                     "cartes », Roger)", "not_now")
    st.todo.remove(step)
    n = min(step.data["left"], draws.friends_left(st))
    if n:
        st.todo.insert(0, draws.friend_step(n, p.id))


def on_discard(st: State, step: Step, p: Player, a: dict[str, Any]) -> None:
    if a["friend"] not in p.hand:
        raise refuse(a, f"{a['friend']} is not in your hand", "not_in_hand")
    p.hand.remove(a["friend"])
    st.friend_discard.append(a["friend"])
    step.data["left"] -= 1
    if step.data["left"] <= 0:
        st.todo.remove(step)


def on_ask_money_free(st: State, step: Step, p: Player, a: dict[str, Any]) -> None:
    """Hans Heinrich, Robert: « Demander de l'argent à vos amis » without a pawn, its
    cost paid (« Précisions sur les cartes »)."""
    if a["gold"] not in (2, 3, 4) or (a["gold"] == 4 and not p.hand):
        raise refuse(a, "ask for 2, 3 or 4 gold (4 costs a friend card from your hand)",
                     "bad_amount")
    st.todo.remove(step)
    if a["gold"] >= 3:
        p.honour -= 1
    p.gold += a["gold"] + board.money_bonus(p)
    if a["gold"] == 4:
        st.todo.insert(0, Step("discard", p.id, {"left": 1}))


def on_swap(st: State, step: Step, p: Player, a: dict[str, Any]) -> None:
    """Isabella: discard cards one by one (``friend``), then ``None``: draw as many from
    the deck (« Précisions sur les cartes »: zero is allowed)."""
    if a["friend"] is None:
        st.todo.remove(step)
        if step.data["count"]:
            st.todo.insert(0, draws.friend_step(step.data["count"], p.id))
        return
    if a["friend"] not in p.hand:
        raise refuse(a, f"{a['friend']} is not in your hand", "not_in_hand")
    p.hand.remove(a["friend"])
    st.friend_discard.append(a["friend"])
    step.data["count"] += 1


def on_complication(st: State, step: Step, p: Player, a: dict[str, Any]) -> None:
    m = p.own(step.data["member"])
    draw = st.todo[1]
    if a["choice"] == "lose_child":
        draw.data["left"] -= 1
    elif a["choice"] == "lose_mother":
        if m.id == "head" and m.sex == "female":
            raise refuse(a, "the family head cannot die of a complication: the child is "
                         "lost (« Complications à la naissance »)", "head")
        if m.sex == "female":
            m.lost = True  # the friend husband stays, and may not remarry
        else:
            st.friend_discard.append(m.spouse or "")
            m.spouse, m.widowed = None, True
    else:
        raise refuse(a, "lose_child or lose_mother", "bad_choice")
    st.todo.remove(step)


def on_child(st: State, step: Step, a: dict[str, Any]) -> None:
    card = a["card"]
    if card not in CHILD_CARDS:
        raise refuse(a, f"a child card is one of {CHILD_CARDS}", "bad_card")
    if a.get("effect") is not None and (card == "complication" or
                                        a["effect"] not in CHILD_EFFECTS):
        raise refuse(a, f"a child's printed effect is one of {CHILD_EFFECTS}", "bad_effect")
    draws.take_child_card(st, card)
    p = st.player(step.player or "")
    m = p.own(step.data["member"])
    if m.spouse and friend_effect(st, m.spouse) == "choose_child_of_two":
        if card == "complication" and p.immune:
            st.child_discard += 1
            return
        pair = step.data.setdefault("pair", [])
        pair.append([card, a.get("effect")])
        if len(pair) == 2:  # Eustachy, Margarethe: keep one of two, discard the other
            step.data["pair"] = []
            st.todo.insert(0, Step("choose_child", p.id, {"member": m.id, "pair": pair}))
        return
    resolve_child(st, step, p, m, card, a.get("effect"))


def friend_effect(st: State, name: str) -> str | None:
    values = st.book.values(FRIEND.name, name)
    return None if values is None else str(values["effect"])


def on_choose_child(st: State, step: Step, p: Player, a: dict[str, Any]) -> None:
    pair = step.data["pair"]
    kept = next((c for c in pair if c[0] == a["card"]), None)
    if kept is None:
        raise refuse(a, f"keep one of {[c[0] for c in pair]}", "not_drawn")
    st.todo.remove(step)
    st.child_discard += 1  # the other card
    draw = st.todo[0]
    m = p.own(step.data["member"])
    resolve_child(st, draw, p, m, kept[0], kept[1])


def resolve_child(st: State, step: Step, p: Player, m: Member, card: str,
                  effect: str | None) -> None:
    """A child card kept for ``m``'s couple: a complication, a card of the wrong sex put
    back, or a child born."""
    if card == "complication":
        if p.immune:
            st.child_discard += 1
            return
        if p.immune:
            st.child_discard += 1
            return
        p.immune, p.complications = True, p.complications + 1
        head_mother = m.id == "head" and m.sex == "female"
        st.todo.insert(0, Step("complication", p.id, {"member": m.id, "head": head_mother}))
        return
    until = step.data.get("until")
    if until and card != until:
        st.child_deck[card] += 1  # shuffled back (« Avoir des enfants »)
        return
    draws.place_child(st, p, m, card, effect)
    if effect == "surprise_twins":
        step.data["left"] += 1
        m.twins += 1
    step.data["left"] -= 1
    if step.data["left"] <= 0 or not (m.spouse and not m.lost):
        st.todo.remove(step)


def on_friend(st: State, step: Step, a: dict[str, Any]) -> None:
    if a.get("to") != step.data["to"]:
        raise refuse(a, f"this friend card goes to {step.data['to']}", "wrong_place")
    draws.draw_friend(st, a["name"])
    if step.data["to"] == "display":
        st.display.append(a["name"])
    else:
        st.player(step.data["to"]).hand.append(a["name"])
    step.data["left"] -= 1


def on_mission_drawn(st: State, step: Step, a: dict[str, Any]) -> None:
    name = a["name"]
    taken = set(st.mission_discard) | set(step.data["drawn"])
    for p in st.players:
        taken |= set(p.missions) | set(p.missions_done)
    if not isinstance(name, str) or not name.strip() or name in taken:
        raise refuse(a, "a mission card not yet drawn, named as printed", "bad_name")
    if st.solo and name in REMOVED_MISSIONS:
        raise refuse(a, "out of the game in the solo variant (« Variante solo standard »)",
                     "solo_removed")
    st.missions_left -= 1
    step.data["drawn"].append(name)
    step.data["left"] -= 1
    if step.data["left"] <= 0 or st.missions_left <= 0:
        st.todo.remove(step)
        st.todo.insert(0, Step("keep_mission", step.data["player"],
                               {"drawn": step.data["drawn"]}))


def on_keep_mission(st: State, step: Step, p: Player, a: dict[str, Any]) -> None:
    if a["mission"] not in step.data["drawn"]:
        raise refuse(a, f"keep one of {step.data['drawn']}", "not_drawn")
    p.missions.append(a["mission"])
    st.mission_discard += [m for m in step.data["drawn"] if m != a["mission"]]
    st.todo.remove(step)


def on_mentor(st: State, step: Step, a: dict[str, Any]) -> None:
    if a["player"] != step.data["player"]:
        raise refuse(a, f"the mentor is dealt to {step.data['player']} now", "wrong_player")
    if not isinstance(a["mentor"], str) or not a["mentor"].strip() or any(
            q.mentor == a["mentor"] for q in st.players):
        raise refuse(a, "a mentor card not yet dealt, named as printed", "bad_name")
    st.player(a["player"]).mentor = a["mentor"]
    st.todo.remove(step)


def on_extra(st: State, step: Step, a: dict[str, Any]) -> None:
    if a["player"] != step.data["player"]:
        raise refuse(a, f"the pawn is dealt to {step.data['player']} now", "wrong_player")
    if a["colour"] not in flow.extra_colours(st):
        raise refuse(a, f"the pawns dealt are {flow.extra_colours(st)}", "bad_colour")
    st.reserve[a["colour"]] -= 1
    st.dealt.append(a["colour"])
    st.player(a["player"]).extra.append(a["colour"])
    st.todo.remove(step)


def on_keep_hand(st: State, step: Step, p: Player, a: dict[str, Any]) -> None:
    st.todo.remove(step)
    if a["redraw"] is True:  # once; the second hand is kept (setup 7)
        st.friend_recycled += p.hand
        n, p.hand = len(p.hand), []
        st.todo.insert(0, draws.friend_step(n, p.id))
    elif a["redraw"] is not False:
        raise refuse(a, "redraw is true or false", "bad_choice")


def on_mentor_score(st: State, step: Step, p: Player, a: dict[str, Any]) -> None:
    main, secondary = a["main"], a["secondary"]
    if not isinstance(main, int) or not isinstance(secondary, list) or not all(
            isinstance(s, int) and s >= 0 for s in secondary):
        raise refuse(a, "main is a number of honour, secondary a list of them", "bad_score")
    if len(secondary) > p.under_mentor:
        raise refuse(a, f"a secondary objective needs a mission under the mentor; "
                     f"{p.id} has {p.under_mentor} mission(s) (« Décompte final »)",
                     "missions")
    count = mentor.score(st.book, p)
    if count is not None and (main != count.main or
                              tuple(sorted(secondary)) not in count.allowed()):
        raise refuse(a, f"{p.mentor} as the box knows it gives {count.main} for its main "
                     f"objective ({count.main_words}) and secondary objectives met of "
                     f"{sorted(o.honour for o in count.secondary if o.met)}, one per "
                     f"mission under it ({count.missions}) (« Décompte final »)",
                     "mentor_count")
    p.mentor_honour = main + sum(secondary)
    p.honour += p.mentor_honour
    st.todo.remove(step)
    if not st.todo:
        flow.finish(st)


def setup_heads(st: State) -> None:
    """Setup 7: each head's income, gold, prestige and extra pawn; then the mentors, the
    display, the starting hands (one redraw each)."""
    steps: list[Step] = [Step("mentor_deal", None, {"player": p.id}) for p in st.order()]
    steps.append(draws.friend_step(DISPLAY, "display"))
    for p in st.order():
        values = st.book.values(HEAD.name, f"{p.head}/{p.side}")
        assert values is not None
        p.income, p.gold, p.prestige = values["income"], values["gold"], values["prestige"]
        if values["extra"] != "none":
            marriage.gain_extra(st, p, values["extra"])
        steps += [draws.friend_step(values["friends"], p.id), Step("keep_hand", p.id)]
    steps.append(Step("begin_game", None))
    st.todo[0:0] = steps


def begin_game(st: State) -> None:
    st.titles, st.contributions = flow.offer(st, 1)
    st.phase, st.turn = "actions", st.first


AUTO = {
    "setup_heads": setup_heads,
    "begin_game": begin_game,
    "grow_up": flow.grow_up,
    "begin_generation": flow.begin_generation,
}
