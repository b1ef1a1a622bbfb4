"""What each Colonia action did, and what the game waits for, in sentences for the table
(nothing behind a screen beyond what the table sees happen)."""

from __future__ import annotations

from companion.games.words import join_words

from .actions import Act
from .state import State
from .tuesday import tally
from .vocabulary import CRAFTS, CURRENCIES, GOODS, RECIPE, WEEKS

ROMAN = ("I", "II", "III", "IV")
GOOD_WORDS = {"saddle": ("a saddle", "saddles"), "wheel": ("a cart wheel", "cart wheels"),
              "painting": ("a painting", "paintings"), "clothing": ("clothing", "clothing"),
              "shoes": ("shoes", "pairs of shoes")}


def count(n: int, word: str) -> str:
    """``1 member``, ``2 members``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def goods_words(good: str, n: int) -> str:
    one, many = GOOD_WORDS[good]
    return one if n == 1 else f"{n} {many}"


def aftermath(before: State, after: State) -> list[str]:
    """What happened between two decisions, in sight of the table: deliveries, ships'
    payments, the end's windows and scores."""
    out: list[str] = []
    if not before.seats or not after.seats:
        return out
    got = []
    for b, a in zip(before.seats, after.seats, strict=True):
        for g, good in enumerate(GOODS):
            if a.goods[g] > b.goods[g]:
                got.append(f"{name(a.color)} {goods_words(good, a.goods[g] - b.goods[g])}")
    if got:
        out.append(f"Deliveries: {join_words(got)}.")
    if before.day == "friday" and after.day != "friday":
        paid = []
        for b, a in zip(before.seats, after.seats, strict=True):
            for i, cur in enumerate(CURRENCIES):
                if a.money[i] > b.money[i]:
                    paid.append(f"{name(a.color)} {a.money[i] - b.money[i]} {cur}")
        out.append(f"The ships leave: {join_words(paid)}." if paid else "The ships leave.")
    if after.step == "over" and before.step != "over":
        from .score import places, score

        for cur, who in after.windows:
            out.append(f"{name(who)} has the most {cur} and wins its stained glass "
                       f"(the {cur} go to the bank).")
        for p in after.players:
            s = score(after, p)
            out.append(f"{name(p)}: relics {s.relics}, in reliquaries {s.doubled}, stained "
                       f"glass {s.window_vp}: {s.total} VP.")
        first = places(after)[0]
        out.append(f"{join_words([name(p) for p in first])} "
                   f"{'win' if len(first) > 1 else 'wins'}.")
    return out


def name(player: str) -> str:
    return player.capitalize()


def tell(before: State, act: Act, after: State) -> str:
    """One sentence for ``act``."""
    kind, a = act.type, act.to_json()
    who = name(str(a.get("player", "")))
    if kind == "card_values":
        return f"The box learns {a['card_type'].split('.')[-1]} card {a['card']!r}."
    if kind == "reveal":
        waits = " (the box must learn it first)" if after.step == "card_values" else ""
        return f"{a['deck'].capitalize()} card {a['card']!r} is turned up{waits}."
    if kind == "fill_stalls":
        laid = "; ".join(f"stall {i + 1}: {', '.join(s) or 'nothing'}"
                         for i, s in enumerate(a["stalls"]))
        return f"Materials from the bag onto the stalls — {laid}."
    if kind == "draw_materials":  # public words: how many each, never which
        each = join_words([f"{name(p)} {count(len(m) if isinstance(m, list) else m, 'material')}"
                           for p, m in a["drawn"].items()])
        return f"Materials drawn from the bag behind the screens: {each}."
    if kind == "add_materials":
        laid = "; ".join(f"stall {i + 1}: {', '.join(s)}" for i, s in enumerate(a["stalls"]) if s)
        return f"The decree's materials from the bag — {laid or 'none left'}."
    if kind == "reveal_family":
        cards = join_words([f"{name(p)} {v}" for p, v in a["answers"].items()])
        zero = [name(s.color) for s in after.seats if s.card is not None and s.votes == 0]
        counts = f"; {join_words(zero)} cannot field the card: it counts 0" if zero else ""
        order = f" Order: {', '.join(map(name, after.order))}." if after.order else ""
        return f"Family cards turned up: {cards}{counts}.{order}"
    if kind == "tiebreak":
        return f"The die settles the equal cards: {', '.join(map(name, a['order']))}."
    if kind == "reveal_votes":
        votes = join_words([f"{name(p)} {v}" for p, v in a["answers"].items()])
        done = [v for v in after.decrees if v.adopted is not None]
        result = ""
        if after.step == "mayor":
            result = " A tie: the mayor decides."
        elif done and "tied_vote_mayors_side" in before.house and len(set(
                tally(a["answers"], {s.color: s.votes for s in before.seats}))) == 1:
            side = "adopted" if done[-1].adopted else "rejected"
            result = f" A tie: {side}, the mayor's side (house rule)."
        elif done:
            result = " Adopted." if done[-1].adopted else " Rejected."
        return f"The council votes: {votes}.{result}"
    if kind == "mayor_decides":
        return f"{who}, the mayor, {'adopts' if a['adopt'] else 'rejects'} the decree."
    if kind == "buy_stall":
        n = sum(before.stalls[a["stall"] - 1])
        return f"{who} takes stall {a['stall']}'s {count(n, 'material')} for {count(n, 'member')}."
    if kind == "order":
        k = CRAFTS.index(a["craft"])
        first, second, good = RECIPE[a["craft"]]
        cost = before.new_orders[k] + 1
        return (f"{who} orders {GOOD_WORDS[good][0]} from the {a['craft']}: {first} and "
                f"{second} back into the bag, {count(cost, 'member')} on the order column.")
    if kind == "roll":
        face = a["face"]
        whom = "every craftsman" if face == 6 else f"the {CRAFTS[face - 1]}"
        return f"The die shows {face}: {whom} takes an extra order."
    if kind == "load":
        hold = before.moorings[a["ship"] - 1].ship.holds[a["hold"] - 1]
        return (f"{who} loads {' + '.join(hold.goods)} into hold {a['hold']} of the ship at "
                f"mooring {ROMAN[a['ship'] - 1]} (worth {hold.value}).")
    if kind == "load_extra":
        return (f"{who} loads {GOOD_WORDS[a['good']][0]} into the extra hold of the ship at "
                f"mooring {ROMAN[a['ship'] - 1]} (worth 2).")
    if kind == "buy_relic":
        into = f", kept in {a['into']}" if a["into"] else ""
        return f"{who} buys the relic card {a['card']!r}{into}."
    if kind == "insure":
        return f"{who} insures the relic card {a['card']!r} with a member."
    if kind == "home":
        home = count(a["members"], "member")
        return f"{who} takes {home} home from the {before.home_from} street."
    if kind == "exchange":
        return f"{who} exchanges {a['amount']} {a['give']} for {a['amount']} {a['get']}."
    if kind == "good_roll":
        roller = name(before.rolling[0]) if before.rolling else "?"
        if a["face"] == 6:
            again = "good_roll_six_again" in before.house
            return f"{roller} rolls 6 for a good: " + ("they roll again (house rule)."
                                                      if again else "they choose which.")
        good = RECIPE[CRAFTS[a["face"] - 1]][2]
        return f"{roller} rolls {a['face']} for a good: {GOOD_WORDS[good][0]}."
    if kind == "pick_good":
        return f"{who} takes {GOOD_WORDS[a['good']][0]} for the 6."
    if kind == "pass":
        return f"{who} passes."
    return kind


def now_text(st: State) -> str:
    """What the game waits for."""
    step = st.step
    if step == "card_values" and st.asking is not None:
        return f"What is printed on {st.asking[0].split('.')[-1]} card {st.asking[1]!r}?"
    if step == "over":
        return "The game is over."
    texts = {
        "ship": "Turn up a ship for the empty mooring.",
        "relic": "Turn up a relic card for the display.",
        "week": f"Week {st.week} of {WEEKS}, Monday: turn up the week card.",
        "decree": "Turn up the next council decree.",
        "stalls": "Draw the materials from the bag onto the stalls.",
        "dice": f"Roll the die for an extra order ({st.dice_left} left).",
        "tiebreak": f"Roll the die among {join_words([name(p) for p in st.tied])}.",
        "family": "Everyone chooses a family card in secret.",
        "vote": "The council votes in secret, yes or no.",
        "mayor": f"A tied vote: {name(st.mayor or '')}, the mayor, decides.",
        "more_stalls": "Draw one more material from the bag for each stall.",
        "merchants": "Draw four materials from the bag for each of the two merchants.",
        "private_materials": "Each player draws two materials from the bag, behind their "
                             "screen.",
        "good_roll": f"Roll the die for {name(st.rolling[0]) if st.rolling else '?'}'s good.",
        "pick_good": f"{name(st.rolling[0]) if st.rolling else '?'} picks the good a 6 gives.",
        "extra_relic": f"Turn up a relic card for an extra place ({st.extra_relics} left).",
    }
    if step in texts:
        return texts[step]
    who = st.to_move()
    return f"{st.day.capitalize()}: {name(who or '')} acts or passes."
