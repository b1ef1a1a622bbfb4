"""The course of a game: rounds, income and upkeep, a generation's end and the next one's
start, the final scoring (« Générations et ordre des manches », « Fin de la génération »,
« Décompte final »)."""

from __future__ import annotations

from . import draws, marriage, solo
from .box import BOARD, CONTRIBUTION, FRIEND, HEAD, OFFER, TITLE
from .family import of_generation
from .state import Player, State, Step
from .vocabulary import EXTRA_COLOURS, ROMAN, ROUNDS


def offer(st: State, gen: int) -> tuple[list[str], list[str]]:
    """The titles and contributions of generation ``gen`` (empty while unknown)."""
    values = st.book.values(OFFER.name, ROMAN[gen])
    if values is None:
        return [], []
    return ([values[f"title_{i}"] for i in (1, 2, 3)],
            [values[f"contribution_{i}"] for i in (1, 2, 3)])


def needs(st: State) -> list[tuple[str, str]]:
    """The cards whose printed values the game needs before going on, in the order asked:
    the family heads at setup, the generation's titles and contributions."""
    if st.todo and st.todo[0].kind == "take_friend" and st.todo[0].data.get("sex"):
        shown = [(FRIEND.name, c) for c in st.display if not st.book.knows(FRIEND.name, c)]
        if shown:  # Don Juan's choice: the display's cards (public) asked first
            return shown
    extra = solo.needs(st) if st.solo and st.phase != "over" else []
    if st.needs_ok == st.checked():
        return extra
    out: list[tuple[str, str]] = []
    if st.phase == "setup":
        out += [(HEAD.name, f"{p.head}/{p.side}") for p in st.players]
    if st.house.get("limited_tracks") and st.phase != "over":
        out.append((BOARD.name, "individual board"))
    if st.phase != "over":
        out.append((OFFER.name, ROMAN[min(st.gen, 3)]))
        titles, contributions = offer(st, min(st.gen, 3))
        out += [(TITLE.name, t) for t in titles] + [(CONTRIBUTION.name, c) for c in contributions]
    return [k for k in out if not st.book.knows(*k)] + extra


def note_needs(st: State) -> list[tuple[str, str]]:
    """`needs`, remembered in ``st`` (a copy the engine is changing) when nothing is."""
    found = needs(st)
    st.needs_ok = None if found else st.checked()
    return found


def hold_tracks(st: State) -> None:
    """House rule ``limited_tracks`` (« Règles d'or »: no more than the tracks allow):
    income and prestige held between the tracks' ends; by default they are unlimited
    (« Plateaux individuels »)."""
    if not st.house.get("limited_tracks"):
        return
    ends = st.book.values(BOARD.name, "individual board")
    if ends is None:
        return
    for p in st.players:
        p.income = min(max(p.income, ends["income_min"]), ends["income_max"])
        p.prestige = min(max(p.prestige, ends["prestige_min"]), ends["prestige_max"])


def last_round(st: State) -> bool:
    return st.gen == 3 and st.round == ROUNDS[3]


def done(st: State, p: Player) -> bool:
    """Whether ``p`` places nothing more this round: out, passed, or nothing to place
    (with the house rule ``free_marriage_without_pawns``, nor a marriage that takes no
    pawn: Ariane, Leonid, Maria)."""
    if p.out or p.passed or p.pawns > 0 or p.extra:
        return p.out or p.passed
    return not (st.house.get("free_marriage_without_pawns") and marriage.free_options(st, p))


def end_round(st: State) -> None:
    """« Phase de revenu et d'entretien », then the generation's end after its last round."""
    for p in st.players:
        if not last_round(st) and not p.out:
            p.gold = max(0, p.gold + p.income)  # a negative income takes what there is
        p.pawns, p.passed = 2, False
    for colour in st.played_extra:
        st.reserve[colour] += 1
    st.played_extra, st.occupied = [], []
    if st.round < ROUNDS[st.gen]:
        st.round += 1
        start_round(st)
        return
    end_generation(st)


def start_round(st: State) -> None:
    """The first-player card passes clockwise (from the game's second round)."""
    st.first = (st.first + 1) % len(st.players)
    st.turn = st.first


def end_generation(st: State) -> None:
    """Prestige to honour, a point per child born, a family without a child dies out,
    every extra pawn back (« Fin de la génération »)."""
    for p in st.players:
        if p.out:
            continue
        p.honour += p.prestige + p.born
        if p.born == 0 and (st.gen < 3 or st.house.get("extinction_in_generation_3", True)):
            p.out = True
        for colour in p.extra:
            st.reserve[colour] += 1
        p.extra, p.born, p.immune, p.effects = [], 0, False, []
        st.child_discard += p.complications
        p.complications = 0
    if st.gen == 3 or all(p.out for p in st.players):
        st.phase = "final"
        st.todo += [Step("mentor_score", p.id) for p in st.order() if not p.out]
        if not st.todo:
            finish(st)
        return
    st.gen += 1
    st.round = 1
    st.phase = "generation_start"
    living = [p for p in st.order() if not p.out]
    st.todo += [Step("extra_deal", None, {"player": p.id}) for p in living]
    st.todo.append(Step("grow_up", None))
    st.todo += [Step("formalise", p.id) for p in living
                if any(m.arranged for m in p.family if m.gen == st.gen)]
    st.todo.append(Step("begin_generation", None))


def grow_up(st: State) -> None:
    """Children flip to their adult side, in turn order (« Cartes enfant »): Brave gives
    1 honour; Don Juan takes a woman from the display; Reine des commères draws 2 friend
    cards; Ravissant sourire adds 1 gold to each ask this generation."""
    steps: list[Step] = []
    for p in st.order():
        for m in of_generation(p, st.gen):
            effect = m.attached.get("effect")
            if effect == "brave":
                p.honour += 1
            elif effect == "don_juan" and st.display:
                steps.append(Step("take_friend", p.id, {"left": 1, "sex": "female"}))
            elif effect == "gossip_queen":
                steps.append(draws.friend_step(2, p.id))  # fewer if the deck runs dry
            elif effect == "ravishing_smile":
                p.effects.append("ask_money_plus_one")
    st.todo[0:0] = steps


def begin_generation(st: State) -> None:
    """The new titles and contributions replace the old; the first round starts."""
    st.titles, st.contributions = offer(st, st.gen)
    st.phase, st.dealt = "actions", []
    start_round(st)


def extra_colours(st: State) -> list[str]:
    """What a generation's random pawn deal draws from: one of each colour the reserve
    still holds, less those dealt already (docs/crecy.md: an exhausted colour is left
    out)."""
    return [c for c in EXTRA_COLOURS if st.reserve.get(c, 0) > 0 and c not in st.dealt]


def finish(st: State) -> None:
    """The winner: most honour, then most cards in hand, then most prestige; a family that
    died out has lost (« Le vainqueur »)."""
    st.phase = "over"
    living = [p for p in st.players if not p.out]
    if not living:
        st.winner = []
        return
    best = max((p.honour, len(p.hand), p.prestige) for p in living)
    st.winner = [p.id for p in living if (p.honour, len(p.hand), p.prestige) == best]
