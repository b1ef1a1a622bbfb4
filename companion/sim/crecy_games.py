"""Random legal games of *Duc de Crecy* with every invariant checked after every action
(``companion simulate --game crecy``), and its engine's speed (``companion bench --game
crecy``).

The box the random tables play with is **synthetic**: 75 friend cards (the seed's named
ones with the values it gives, the rest ``Ami NN``), titles, contributions and heads with
random values drawn here, answered through the card forms as a table would. They are test
inputs, never the game's data (`companion.crecy.box` holds only the seed's values)."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from companion.crecy import box, engine, record, views, words
from companion.crecy.draws import seen
from companion.crecy.solo import REMOVED_FRIENDS, REMOVED_MISSIONS
from companion.crecy.state import State
from companion.crecy.vocabulary import (
    ACTIVITIES,
    CHILD_EFFECTS,
    EXTRA_COLOURS,
    FRIEND_CARDS,
    MENTOR_COUNTS,
    RESIDENCES_BY_PLAYERS,
)
from companion.games.cards import answer_action

NATIONS = ("French", "Prussian", "Russian", "Spanish", "English", "Italian")
SEED_NAMES = sorted({c for (k, c) in box.SHIPPED if k == box.FRIEND.name})
MAX_ACTIONS = 5000
SEED_MISSIONS = sorted(c for (k, c) in box.SHIPPED if k == box.MISSION.name)
MISSIONS = tuple(SEED_MISSIONS + [f"Mission {i}" for i in range(len(SEED_MISSIONS) + 1, 16)])


def friend_names() -> list[str]:
    return SEED_NAMES + [f"Ami {i:02d}" for i in range(1, FRIEND_CARDS - len(SEED_NAMES) + 1)]


FRIENDS = tuple(friend_names())


def synthetic_values(kind: str, card: str, rng: random.Random,
                     known: dict[str, Any]) -> dict[str, Any]:
    """Random values that fit ``kind``'s form, keeping what the seed gives."""
    if kind == box.FRIEND.name:
        bring_income = rng.random() < 0.5
        v: dict[str, Any] = {
            "sex": rng.choice(("female", "male")), "nationality": rng.choice(NATIONS),
            "activity": rng.choice(ACTIVITIES), "gold": rng.randint(-4, 3),
            "income": rng.randint(0, 2) if bring_income else 0,
            "friends": 0 if bring_income else rng.randint(0, 2),
            "prestige": rng.randint(0, 2),
            "effect": rng.choice(["none"] * 8 + sorted(set(box.EFFECTS) - {"none", "other"})),
        }
        if v["effect"] in box.BONUS_EFFECTS or known.get("effect") in box.BONUS_EFFECTS:
            v |= {"bonus_kind": rng.choice(box.BONUS_KINDS), "bonus_amount": rng.randint(0, 2),
                  "kin": rng.randint(1, 2)}
    elif kind == box.HEAD.name:
        v = {"income": rng.randint(1, 3), "gold": rng.randint(4, 9), "friends": rng.randint(3, 5),
             "prestige": 0, "extra": rng.choice(("none", *EXTRA_COLOURS))}
    elif kind == box.MISSION.name:
        v = {"effect": rng.choice(sorted(box.MISSION_EFFECTS)),
             "activity": rng.choice(("none", *ACTIVITIES))}
    elif kind == box.MENTOR.name:
        v = {"main_count": rng.choice([*MENTOR_COUNTS, "other"]),
             "main_kind": rng.choice([None, None, *ACTIVITIES, *NATIONS]),
             "main_row": rng.choice([None, 0, 2, 3, 4]), "main_per": rng.randint(0, 2),
             "main_plus": rng.randint(-2, 3)}
        for i in (1, 2, 3):
            what = rng.choice(["none", *MENTOR_COUNTS])
            v |= {f"s{i}_count": what, f"s{i}_kind": rng.choice([None, *ACTIVITIES]),
                  f"s{i}_row": rng.choice([None, 3, 4]),
                  f"s{i}_at_least": None if what == "none" else rng.randint(0, 6),
                  f"s{i}_honour": None if what == "none" else rng.randint(1, 6)}
    elif kind == box.BOARD.name:
        v = {"income_min": rng.randint(-2, 0), "income_max": rng.randint(6, 12),
             "prestige_min": rng.randint(-5, 0), "prestige_max": rng.randint(8, 15)}
    elif kind == box.SOLO_TABLE.name:
        actions = [x for x in box.SOLO_ACTIONS if x not in known.values()]
        rng.shuffle(actions)  # one action an activity, the seed's scientist kept
        v = dict(zip([x for x in ACTIVITIES if x not in known], actions, strict=True))
    elif kind == box.OFFER.name:
        v = {f"{w}_{i}": f"{'Titre' if w == 'title' else 'Contribution'} {card}.{i}"
             for w in ("title", "contribution") for i in (1, 2, 3)}
    else:
        v = {"cost_gold": rng.randint(1, 6), "cost_friends": rng.randint(0, 2),
             "cost_income": rng.randint(0, 1), "income": rng.randint(0, 1),
             "prestige": rng.randint(0, 3), "honour": rng.randint(0, 2),
             "friends": rng.randint(0, 1)}
    return {**v, **known}


def _question(st: State, rng: random.Random) -> tuple[str, str, str | None] | None:
    """A card's form to answer now, and whose phone answers it (None: the table's)."""
    now = engine.pending(st)
    if now.kind == "learn":
        q = now.detail["question"]
        return q["card_type"], q["card"], None
    p = st.players[st.turn]
    if now.kind == "turn" and rng.random() < 0.5:  # its owner means to play it now
        unknown = [c for c in p.hand if not st.book.knows(box.FRIEND.name, c)]
        if unknown:
            return box.FRIEND.name, rng.choice(unknown), p.id
    if now.kind == "turn" and p.mentor and rng.random() < 0.1 and \
            not st.book.knows(box.MENTOR.name, p.mentor):  # on the mentor's owner's phone
        return box.MENTOR.name, p.mentor, None
    return None


def random_action(st: State, rng: random.Random, ask: bool = True) -> dict[str, Any]:
    """A random legal action, a draw, or (``ask``) an answer to a card's form."""
    asked = _question(st, rng) if ask else None
    if asked is not None:
        kind, card, hand = asked
        q = st.book.question(kind, card)
        answer = answer_action(kind, card, synthetic_values(kind, card, rng, q["known"]))
        return answer if hand is None else {**answer, "hand": hand}
    now = engine.pending(st)
    spec = engine.chance_spec(st)
    if spec is not None:
        drawn = spec.action([rng.choice(spec.contents)])
        if drawn["type"] == "child_drawn" and drawn["card"] != "complication" and \
                rng.random() < 0.2:  # a hand draw reports the card's printed effect
            drawn["effect"] = rng.choice(CHILD_EFFECTS)
        return drawn
    if now.kind == "friend_draw":
        unseen = sorted(set(FRIENDS) - seen(st) - (set(REMOVED_FRIENDS) if st.solo else set()))
        pool = sorted(st.friend_recycled) if st.friend_fresh == 0 else unseen
        return {"type": "friend_drawn", "name": rng.choice(pool), "to": now.detail["to"]}
    if now.kind == "mission_draw":
        taken = set(st.mission_discard) | set(st.todo[0].data["drawn"])
        for p in st.players:
            taken |= set(p.missions) | set(p.missions_done)
        free = [m for m in MISSIONS if m not in taken]
        return {"type": "mission_drawn", "name": rng.choice(free)}
    if now.kind == "mentor_deal":
        dealt = {p.mentor for p in st.players}
        free = [f"Mentor {i}" for i in range(1, 7) if f"Mentor {i}" not in dealt]
        return {"type": "mentor_dealt", "player": now.detail["for"], "mentor": rng.choice(free)}
    if now.kind == "mentor_score" and engine.legal_options(st):
        return engine.legal_options(st)[0]  # the box's count of a learned mentor
    if now.kind == "mentor_score":
        p = st.player(now.player or "")
        return {"type": "mentor_score", "player": p.id, "main": rng.randint(0, 10),
                "secondary": [rng.randint(0, 4) for _ in range(rng.randint(0, p.under_mentor))]}
    if now.kind == "turn" and rng.random() < 0.02:
        p = st.players[st.turn]
        if p.missions and (box.MISSION.name, p.missions[0]) in st.book.shipped and \
                not st.book.knows(box.MISSION.name, p.missions[0]):
            q = st.book.question(box.MISSION.name, p.missions[0])
            return answer_action(box.MISSION.name, p.missions[0], synthetic_values(
                box.MISSION.name, p.missions[0], rng, q["known"]))
        if p.missions:
            return {"type": "validate_mission", "player": p.id, "mission": p.missions[0],
                    "honour": 2}
        return {"type": "adjust", "player": p.id, "gold": 1, "note": "another effect"}
    options = engine.legal_options(st)
    family = [o for o in options if o["type"] in ("marry", "have_child", "arrange")]
    if family and rng.random() < 0.6:  # a table plays for its family, not at random
        return rng.choice(family)
    return rng.choice(options)


def violations(st: State) -> list[str]:
    """Every invariant the state breaks."""
    out: list[str] = []
    ends = st.book.values(box.BOARD.name, "individual board") if st.house.get(
        "limited_tracks") else None
    for p in st.players:
        if ends and not (ends["income_min"] <= p.income <= ends["income_max"] and
                         ends["prestige_min"] <= p.prestige <= ends["prestige_max"]):
            out.append(f"{p.id}: income {p.income}, prestige {p.prestige} off the tracks")
        if p.gold < 0:
            out.append(f"{p.id}: gold {p.gold}")
        if not 0 <= p.pawns <= 2:
            out.append(f"{p.id}: {p.pawns} player pawns")
        for m in p.family:
            if m.children > 3 + m.twins:
                out.append(f"{p.id}: {m.id} has {m.children} children")
    extra = sum(st.reserve.values()) + len(st.played_extra) + sum(len(p.extra) for p in st.players)
    if extra != 15:
        out.append(f"extra pawns: {extra}, not 15")
    for kind, left in (("residence", st.residences), ("enterprise", st.enterprises)):
        held = sum(kind in m.attached for p in st.players for m in p.family)
        if held + left != RESIDENCES_BY_PLAYERS[len(st.players)]:
            out.append(f"{kind} cards: {held} held + {left} left")
    for kind, offer in (("title", st.titles), ("contribution", st.contributions)):
        names = [m.attached[kind] for p in st.players for m in p.family if kind in m.attached]
        if len(names) != len(set(names)) or set(names) & set(offer):
            out.append(f"{kind}s held twice or still on offer: {names}")
    children = sum(1 for p in st.players for m in p.family if m.card in ("girl", "boy"))
    kept = sum(p.complications for p in st.players)
    pairs = sum(len(s.data.get("pair", ())) for s in st.todo)
    cards = sum(st.child_deck.values()) + sum(st.child_reserve.values()) + children + kept \
        + st.child_discard + pairs
    if cards != 88:
        out.append(f"child cards: {cards}, not 88")
    spouses = sum(1 for p in st.players for m in p.family if m.spouse)
    friends = st.friend_fresh + len(st.friend_recycled) + len(st.friend_discard) + \
        len(st.display) + sum(len(p.hand) for p in st.players) + spouses
    in_play = FRIEND_CARDS - (len(REMOVED_FRIENDS) if st.solo else 0)
    if friends != in_play:
        out.append(f"friend cards: {friends}, not {in_play}")
    drawing = sum(len(s.data.get("drawn", [])) for s in st.todo if s.kind in (
        "mission_draw", "keep_mission"))
    missions = st.missions_left + len(st.mission_discard) + drawing + sum(
        len(p.missions) + len(p.missions_done) + p.under_mentor for p in st.players)
    in_play = 15 - (len(REMOVED_MISSIONS) if st.solo else 0)
    if missions != in_play:
        out.append(f"mission cards: {missions}, not {in_play}")
    return out


def secrets_shown(st: State, before: State, action: dict[str, Any],
                  secret: dict[str, set[str]]) -> list[str]:
    """The secret names (a player's privately drawn cards, mentors, a mission being
    chosen) found in the table's view, another player's view, the action's public form or
    its narration."""
    out: list[str] = []
    pend = engine.pending(st).to_json()
    public = [json.dumps(views.view(st, "table", pend), ensure_ascii=False),
              json.dumps(views.public_action(action), ensure_ascii=False),
              words.headline(before, action, st), words.now_text(st, pend)]
    public += [json.dumps(views.public_option(o), ensure_ascii=False)
               for o in engine.legal_options(st)]
    for p in st.players:
        others = [json.dumps(views.view(st, q.id, pend), ensure_ascii=False)
                  for q in st.players if q.id != p.id]
        for name in secret.get(p.id, set()):
            if any(f'"{name}"' in text or f" {name}." in text for text in public + others):
                out.append(f"{p.id}'s secret {name!r} shown")
    return out


def _track(before: State, a: dict[str, Any], after: State, secret: dict[str, set[str]]) -> None:
    kind = a["type"]
    if kind == "friend_drawn" and a["to"] != "display":
        secret.setdefault(a["to"], set()).add(a["name"])
    elif kind == "mentor_dealt":
        secret.setdefault(a["player"], set()).add(a["mentor"])
    elif kind == "mission_drawn":
        secret.setdefault(before.todo[0].data["player"], set()).add(a["name"])
    elif kind == "keep_mission":
        secret[a["player"]].discard(a["mission"])
    elif kind in ("marry", "arrange"):
        secret.get(a["player"], set()).discard(a["friend"])
    elif kind == "mentor_score":  # turned up
        secret.get(a["player"], set()).discard(before.player(a["player"]).mentor or "")
    friends = set(FRIENDS)
    for p in after.players:  # a friend card is secret while it is in the hand it was drawn to
        mine = secret.get(p.id, set())
        mine -= {c for c in mine if c in friends and c not in p.hand}


def play(seed: int, players: int) -> dict[str, Any]:
    rng = random.Random(seed)
    names = ["red", "blue", "green", "yellow"][:players]
    header = record.make_header(names, rng.choice(names), families={
        p: {"head": "ABCD"[i], "side": rng.choice(("patriarch", "matriarch"))}
        for i, p in enumerate(names)}, house={  # every house rule played both ways
        rule: rng.random() < 0.5 for rule in sorted(record.HOUSE_RULES)})
    st = record.start(header)
    actions: list[dict[str, Any]] = []
    found: list[str] = []
    secret: dict[str, set[str]] = {}
    while not engine.is_over(st) and len(actions) < MAX_ACTIONS:
        a = random_action(st, rng)
        after = engine.apply(st, a)
        _track(st, a, after, secret)
        found += [f"action {len(actions) + 1}: {v}" for v in violations(after)]
        found += [f"action {len(actions) + 1}: {v}" for v in secrets_shown(after, st, a, secret)]
        actions.append(a)
        st = after
    again = record.replay(header, actions)
    if views.view(again, "table", engine.pending(again).to_json(), everything=True) != \
            views.view(st, "table", engine.pending(st).to_json(), everything=True):
        found.append("the record does not replay to the same state")
    return {"actions": len(actions), "over": engine.is_over(st), "violations": found[:5],
            "violation_count": len(found), "winner": list(st.winner),
            "extinct": sum(p.out for p in st.players), "header": header, "record": actions}


def simulate(games: int, seed: int = 1, players: int | None = None) -> dict[str, Any]:
    """``games`` random games (2–4 players in turn unless ``players``), invariants and
    secrets checked after every action, each record replayed."""
    start = time.perf_counter()
    results = [play(seed * 100_003 + i, players or 2 + i % 3) for i in range(games)]
    for r in results:
        del r["header"], r["record"]
    seconds = time.perf_counter() - start
    total = sum(r["actions"] for r in results)
    return {
        "game": "crecy", "games": games, "actions": total, "seconds": round(seconds, 2),
        "actions_per_second": round(total / seconds, 1) if seconds else None,
        "violations": sum(r["violation_count"] for r in results),
        "first_violations": [v for r in results for v in r["violations"]][:10],
        "ended": sum(r["over"] for r in results),
        "families_extinct": sum(r["extinct"] for r in results),
    }


def synthetic_box(rng: random.Random) -> dict[str, dict[str, dict[str, Any]]]:
    """A whole synthetic box, as a table that has learned every card would hold it."""
    book = box.book()
    out: dict[str, dict[str, dict[str, Any]]] = {}

    def learn(kind: str, card: str) -> dict[str, Any]:
        values = synthetic_values(kind, card, rng, book.question(kind, card)["known"])
        out.setdefault(kind, {})[card] = values
        return values

    for card in friend_names():
        learn(box.FRIEND.name, card)
    for head in "ABCD":
        for side in ("patriarch", "matriarch"):
            learn(box.HEAD.name, f"{head}/{side}")
    for gen in ("I", "II", "III"):
        offer = learn(box.OFFER.name, gen)
        for i in (1, 2, 3):
            learn(box.TITLE.name, offer[f"title_{i}"])
            learn(box.CONTRIBUTION.name, offer[f"contribution_{i}"])
    return out


def bench(seconds: float = 5.0, seed: int = 1) -> dict[str, Any]:
    """Steps of the Crecy engine beside python-chess's (as `companion.bench.engine`: a
    step lists the options and applies one, or draws), with a box that knows its cards.
    Wall-clock time as the Village bench, and the processes' CPU time beside it (a shared
    machine's load weighs on the first)."""
    from companion.bench.engine import chess_steps

    rng = random.Random(seed)
    cards = synthetic_box(rng)
    steps, t0, c0, game = 0, time.perf_counter(), time.process_time(), 0
    while time.perf_counter() - t0 < seconds:
        names = ["red", "blue", "green", "yellow"][: 2 + game % 3]
        families = {p: {"head": "ABCD"[i], "side": "patriarch"} for i, p in enumerate(names)}
        game += 1
        st = record.start(record.make_header(names, families=families, cards=cards))
        while not engine.is_over(st) and time.perf_counter() - t0 < seconds:
            st = engine.apply(st, random_action(st, rng, ask=False))
            steps += 1
    e_time, e_cpu = time.perf_counter() - t0, time.process_time() - c0
    c0 = time.process_time()
    c_steps, c_time = chess_steps(seconds, random.Random(seed))
    c_cpu = time.process_time() - c0
    e_us, c_us = e_time / steps * 1e6, c_time / c_steps * 1e6
    return {"game": "crecy", "engine_steps": steps, "engine_us_per_step": round(e_us, 2),
            "chess_steps": c_steps, "chess_us_per_step": round(c_us, 2),
            "ratio": round(e_us / c_us, 3),
            "cpu_ratio": round((e_cpu / steps) / (c_cpu / c_steps), 3),
            "seconds_each": seconds}
