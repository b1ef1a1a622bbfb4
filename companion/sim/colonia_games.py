"""Random Colonia games (``companion simulate --game colonia``): every action checked by
the engine, the invariants after each (`companion.colonia.invariants`), every sealed
choice answered through the table's own sealed answers with its public forms compared
before and after each answer, each draw behind the screens checked to name no material in
public, and every record replayed.

The seed prints neither the setup sheet nor the cards, so the simulated box INVENTS them
(`invented_box`, from the generator): the games test the rules' bookkeeping, not the
real cards' balance."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from companion.bags import draw_with_rng
from companion.colonia import legal
from companion.colonia.cards import DECK_SIZES, EFFECTS
from companion.colonia.engine import apply, sealed_choice
from companion.colonia.game import GAME
from companion.colonia.invariants import violations
from companion.colonia.record import HOUSE_RULES, make_header, replay, start
from companion.colonia.state import State
from companion.colonia.vocabulary import CITIES, COLORS, GOODS, MATERIALS
from companion.table.sealed_choices import SealedAnswers

CAP = 5_000


def invented_box(players: int, rng: random.Random) -> dict[str, Any]:
    """An invented setup sheet for ``players`` (not the printed one)."""
    sheet = {f"money_{c}": rng.randint(2, 8) for c in ("pound", "grivna", "mark", "gulden")}
    sheet.update(members=rng.randint(14, 24), stick_start=rng.randint(0, 1),
                 stained_glass_vp=rng.randint(1, 4))
    return {"colonia.setup": {f"{players} players": sheet}}


def invented_card(deck: str, rng: random.Random) -> dict[str, Any]:
    """Invented printed values for a card of ``deck``."""
    if deck == "week":
        orders = {c: rng.randint(0, 2) for c in ("saddler", "wheelwright", "painter", "tailor",
                                                 "shoemaker")}
        stalls = " ".join(str(rng.randint(1, 4)) for _ in range(rng.randint(4, 6)))
        return {"stalls": stalls, **orders, "dice": rng.randint(1, 5), "ships": rng.randint(1, 3)}
    if deck == "decree":
        return {"day": rng.randint(3, 6), "text": "invented", "effect": rng.choice(EFFECTS)}
    if deck == "ship":
        holds: dict[str, str | None] = {f"hold_{i}": "+".join(rng.sample(GOODS, rng.randint(1, 2)))
                 + f"={rng.randint(2, 9)}" for i in (1, 2, 3)}
        holds["hold_4"] = ("+".join(rng.sample(GOODS, 1)) + f"={rng.randint(2, 9)}"
                           if rng.random() < 0.5 else None)
        return {"city": rng.choice(CITIES), **holds}
    kind = "reliquary" if rng.random() < 1 / 12 else "relic"
    return {"city": rng.choice(CITIES), "kind": kind, "price": rng.randint(2, 7),
            "currency": rng.choice(("pound", "grivna", "mark", "gulden")),
            "vp": 0 if kind == "reliquary" else rng.randint(1, 5)}


def _views(st: State) -> str:
    return json.dumps([GAME.view(st, p) for p in ("table", *st.players)], sort_keys=True,
                      default=str)


def _sealed(st: State, rng: random.Random, problems: list[str]) -> dict[str, Any]:
    """Every asked player answers (the first changes their mind) through the table's
    `SealedAnswers`: after each answer its public form must say only who has answered and
    who is awaited, and no view may change."""
    choice = sealed_choice(st)
    assert choice is not None
    answers = SealedAnswers()
    views = _views(st)
    for p in (*choice.players, choice.players[0]):
        answers.put(choice, p, rng.choice(choice.allowed(p)))
        given = [q for q in choice.players if q in answers.answers]
        expected = {"key": choice.key, "question": choice.question,
                    "players": list(choice.players), "answered": given,
                    "waiting": [q for q in choice.players if q not in given]}
        if answers.public(choice) != expected:
            problems.append(f"a sealed choice's public form is {answers.public(choice)}")
    if _views(st) != views:
        problems.append("a view changed with a sealed answer")
    return choice.action(answers.answers)


def pick(st: State, rng: random.Random, cards: dict[str, int],
         problems: list[str] | None = None) -> dict[str, Any]:
    """The next action of a random table; ``problems``: where the sealed answers' checks
    go (None: each asked player answers once, unchecked, as the engine bench plays)."""
    if st.step == "card_values" and st.asking is not None:
        kind, name = st.asking
        return {"type": "card_values", "card_type": kind, "card": name,
                "values": invented_card(kind.split(".")[1], rng)}
    spec = GAME.chance_spec(st)
    if spec is not None:  # a deck the box knows whole is drawn virtually too
        return draw_with_rng(spec, rng)
    if st.step in ("week", "decree", "ship", "relic", "extra_relic"):
        deck = st.step.removeprefix("extra_")
        cards[deck] = cards.get(deck, 0) + 1
        while (deck, f"{deck} {cards[deck]}") in st.turned:  # a whole deck already out
            cards[deck] += 1
        return {"type": "reveal", "deck": deck, "card": f"{deck} {cards[deck]}"}
    choice = sealed_choice(st)
    if choice is not None:
        if problems is None:
            return choice.action({p: rng.choice(choice.allowed(p)) for p in choice.players})
        return _sealed(st, rng, problems)
    moves = legal.moves(st)
    acts = [m for m in moves if m["type"] != "pass"]
    if acts and rng.random() < 0.85:
        return rng.choice(acts)
    return rng.choice(moves)


def random_game(seed: int, players: int) -> tuple[dict[str, Any], list[dict[str, Any]],
                                                  State, list[str]]:
    """One random game: header, actions, last state, the invariants broken on the way."""
    rng = random.Random(seed)
    colors = rng.sample(COLORS, players)
    box = invented_box(players, rng)
    if rng.random() < 0.5:  # half the games: a box that knows every card (virtual decks)
        for deck, n in DECK_SIZES.items():
            box[f"colonia.{deck}"] = {f"{deck} {i}": invented_card(deck, rng)
                                      for i in range(1, n + 1)}
    house = {k: rng.random() < 0.5 for k in sorted(HOUSE_RULES)}  # every reading played
    header = make_header(colors, cards=box, house=house)
    st, actions, problems, cards = start(header), [], [], {}  # type: ignore[var-annotated]
    while st.step != "over" and len(actions) < CAP:
        action = pick(st, rng, cards, problems)
        before, st = st, apply(st, action)
        actions.append(action)
        if action["type"] == "draw_materials":  # behind the screens: no kind in public
            told = json.dumps([GAME.public_action(action), GAME.view(st, "table")["bag"],
                               GAME.narrate(before, GAME.parse_action(action), st)])
            if any(m in told for m in MATERIALS):
                problems.append(f"after action {len(actions)}: a private draw told: {told}")
        problems += [f"after action {len(actions)}: {v}" for v in violations(st)]
    if st.step != "over":
        problems.append(f"no end after {CAP} actions")
    return header, actions, st, problems


def simulate(games: int, seed: int = 1, players: int | None = None) -> dict[str, Any]:
    """Play ``games`` random games; every record is replayed and compared."""
    began = time.perf_counter()
    actions = 0
    found: list[str] = []
    for g in range(games):
        n = players or 2 + g % 5
        header, acts, last, problems = random_game(seed * 100_003 + g, n)
        actions += len(acts)
        if replay(header, acts) != last:
            problems.append("the record does not replay to the same state")
        found += [f"game {g + 1}: {p}" for p in problems]
    seconds = time.perf_counter() - began
    return {"game": "colonia", "games": games, "actions": actions,
            "seconds": round(seconds, 2),
            "actions_per_second": round(actions / seconds) if seconds else None,
            "violations": len(found), "examples": found[:10],
            "box": "invented by the simulator (the seed prints no card values)"}
