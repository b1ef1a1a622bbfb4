"""The seed's own examples (seed 004), each through `companion.colonia.engine.apply`."""

from __future__ import annotations

from dataclasses import replace

import pytest
from colonia_kit import act, at, ready

from companion.colonia.cards import Decree, Relic
from companion.colonia.score import score
from companion.colonia.scoring import stained_glass
from companion.colonia.state import Berth, Order, State, Voting
from companion.colonia.vocabulary import CRAFTS, CURRENCIES, MATERIALS
from companion.colonia.words import aftermath
from companion.games.errors import IllegalAction

FOUR = ["mauve", "green", "yellow", "red"]


def test_the_week_card_sets_the_orders_dice_and_ships() -> None:
    """« le bourrelier exécute 1 commande, le charron 2 … le cordonnier 1 … 5 commandes
    supplémentaires … 3 bateaux » — the seed gives these values of its example card but not
    its stalls: the box asks for what is missing, starting from what it knows."""
    st = ready(FOUR)
    st = act(st, type="reveal", deck="week", card="example")
    assert st.step == "card_values" and st.asking == ("colonia.week", "example")
    question = st.cards.question("colonia.week", "example")
    assert question["known"]["dice"] == 5 and "stalls" not in question["known"]
    st = act(st, type="card_values", card_type="colonia.week", card="example",
             values={**question["known"], "stalls": "2 2"})
    assert st.step == "stalls"
    st = act(st, type="fill_stalls", stalls=[["wood", "fur"], ["iron", "iron"]])
    assert dict(zip(CRAFTS, st.sticks, strict=True)) == {
        "saddler": 1, "wheelwright": 2, "painter": 1, "tailor": 2, "shoemaker": 1}
    assert st.leaving == 3 and st.week_card is not None and st.week_card.dice == 5
    assert st.bag == (18, 16, 17, 18, 17)


def test_equal_cards_swap_their_previous_order() -> None:
    """« mauve a joué un 7, vert un 3, jaune et rouge tous les deux un 5 … Au tour
    précédent, jaune était deuxième et rouge, dernier … mauve est premier … suivi de rouge
    et jaune ; vert est dernier »."""
    st = at(ready(FOUR), week=2, day="tuesday", step="family",
            order=("green", "yellow", "mauve", "red"))
    st = act(st, type="reveal_family",
             answers={"mauve": 7, "green": 3, "yellow": 5, "red": 5})
    assert st.order == ("mauve", "red", "yellow", "green")
    assert st.mayor == "mauve"
    assert st.seat("mauve").street("tuesday") == 7 and st.seat("mauve").reserve == 13


def test_a_card_the_family_cannot_field_counts_zero() -> None:
    st = at(ready(FOUR), week=2, day="tuesday", step="family",
            order=("green", "yellow", "mauve", "red"))
    st = st.with_seat(replace(st.seat("red"), reserve=2, streets=(3, 0, 0, 0)))
    st = act(st, type="reveal_family", answers={"mauve": 7, "green": 3, "yellow": 5, "red": 4})
    red = st.seat("red")
    assert red.votes == 0 and st.order[-1] == "red"
    assert (red.reserve, red.street("tuesday")) == (1, 4)  # 2 + 2 from the street sent


def test_the_vote_is_rejected_eleven_to_eight() -> None:
    """« mauve et vert … 5 et 3 … Oui, rouge et jaune … 7 et 4 … Non … 11 Non contre 8 Oui.
    Le décret est rejeté »."""
    st = ready(FOUR)
    weights = {"mauve": 5, "green": 3, "red": 7, "yellow": 4}
    for color, w in weights.items():
        st = st.with_seat(replace(st.seat(color), votes=w, card=w))
    st = at(st, week=1, day="wednesday", step="vote", order=("red", "mauve", "yellow", "green"),
            decrees=(Voting(Decree("D1", 3, None)),), stalls=((0, 1, 0, 0, 0),),
            bought=(None,))
    st = act(st, type="reveal_votes",
             answers={"mauve": "yes", "green": "yes", "red": "no", "yellow": "no"})
    assert st.decrees[0].adopted is False and st.step == "market"


def test_a_tied_vote_is_decided_by_the_mayor() -> None:
    st = ready(FOUR)
    for color, w in {"mauve": 5, "green": 3, "red": 4, "yellow": 4}.items():
        st = st.with_seat(replace(st.seat(color), votes=w, card=w))
    st = at(st, week=1, day="wednesday", step="vote", order=("red", "mauve", "yellow", "green"),
            decrees=(Voting(Decree("D1", 3, None)),), stalls=((0, 1, 0, 0, 0),),
            bought=(None,))
    st = act(st, type="reveal_votes",
             answers={"mauve": "yes", "green": "yes", "red": "no", "yellow": "no"})
    assert st.step == "mayor"
    with pytest.raises(IllegalAction, match="mayor"):
        act(st, type="mayor_decides", player="mauve", adopt=True)
    st = act(st, type="mayor_decides", player="red", adopt=True)
    assert st.decrees[0].adopted is True


def _market(st: State) -> State:
    return at(st, week=1, day="wednesday", step="market", order=("yellow", "mauve", "red", "green"),
              stalls=((2, 1, 1, 1, 1), (0, 0, 1, 1, 0)), bought=(None, None))


def test_six_materials_cost_six_members() -> None:
    """« le joueur jaune prend les 6 matières premières du premier stand … Puis il pose 6
    membres de la famille sur le stand »."""
    st = _market(ready(FOUR))
    st = act(st, type="buy_stall", player="yellow", stall=1)
    yellow = st.seat("yellow")
    assert yellow.reserve == 14 and yellow.materials == (2, 1, 1, 1, 1)
    assert st.bought[0] == ("yellow", 6) and st.to_move() == "mauve"
    with pytest.raises(IllegalAction):
        act(st, type="buy_stall", player="mauve", stall=1)  # a stall is taken whole, once
    short = st.with_seat(replace(st.seat("mauve"), reserve=1))
    with pytest.raises(IllegalAction, match="2 materials cost 2 members; mauve has 1"):
        act(short, type="buy_stall", player="mauve", stall=2)
    for p in ("mauve", "red", "green", "yellow"):
        st = act(st, type="pass", player=p)
    # the unbought stall goes back into the bag, the members to the Wednesday street
    assert st.step == "order" and st.bag == (18, 18, 19, 19, 18)
    assert st.seat("yellow").street("wednesday") == 6


def test_orders_cost_one_member_then_two() -> None:
    """« mauve … une selle … remet dans le sac un cuir et un fer … 1 membre … vert … aussi
    une selle … 2 membres »."""
    st = ready(FOUR)
    for color in ("mauve", "green"):
        st = st.with_seat(replace(st.seat(color), materials=(1, 1, 0, 0, 0)))
    st = at(st, week=1, day="thursday", step="order", order=("mauve", "green", "red", "yellow"),
            bag=(17, 17, 18, 18, 18))
    st = act(st, type="order", player="mauve", craft="saddler")
    st = act(st, type="order", player="green", craft="saddler")
    assert st.columns[0] == (Order("mauve", 1), Order("green", 2))
    assert st.seat("mauve").reserve == 19 and st.seat("green").reserve == 18
    assert st.bag == (19, 19, 18, 18, 18)
    with pytest.raises(IllegalAction, match="needs leather and iron"):
        act(st, type="order", player="red", craft="saddler")


def _thursday_dice(st: State) -> State:
    painter = (Order("red", 1), Order("green", 2), Order("red", 3), Order("yellow", 1))
    columns = tuple(painter if c == "painter" else () for c in CRAFTS)
    return at(st, week=1, day="thursday", step="dice", dice_left=2, columns=columns,
              sticks=(1, 2, 2, 2, 1), order=("red", "green", "yellow", "mauve"))


def test_a_four_gives_the_tailor_an_extra_order() -> None:
    """« Un 4 a été obtenu au dé. Le tailleur exécute donc une commande de plus »; a 6
    moves every stick."""
    st = act(_thursday_dice(ready(FOUR)), type="roll", face=4)
    assert st.sticks == (1, 2, 2, 3, 1)
    six = act(_thursday_dice(ready(FOUR)), type="roll", face=6)
    assert six.sticks == (2, 3, 3, 3, 2)


def test_deliveries_red_two_paintings_green_one_yellow_none() -> None:
    """« le joueur rouge reçoit 2 tableaux, le vert tout de même un tableau, le jaune ne
    reçoit aucun tableau … ses membres … en dessous du bâtonnet »."""
    st = act(_thursday_dice(ready(FOUR)), type="roll", face=3)  # the painter: stick 2 → 3
    last, st = st, act(st, type="roll", face=1)
    assert st.day == "friday" and st.step == "load"
    assert aftermath(last, st) == ["Deliveries: Green a painting and Red 2 paintings."]
    painting = 2
    assert [st.seat(p).goods[painting] for p in ("red", "green", "yellow")] == [2, 1, 0]
    assert st.columns[CRAFTS.index("painter")] == (Order("yellow", 1),)  # moved up
    assert st.seat("red").street("thursday") == 4 and st.seat("green").street("thursday") == 2
    assert st.sticks == (0, 0, 0, 0, 0)  # back to their start


def test_the_ship_pays_red_nine_gulden() -> None:
    """« le joueur rouge reçoit 9 couronnes (Brügge), car il a un membre … dans la soute »."""
    st = ready(FOUR)
    berth = st.moorings[0]
    assert berth.ship.city == "bruges" and berth.ship.holds[0].value == 9
    moorings = (Berth(berth.ship, ("red", None, None)), *st.moorings[1:])
    st = at(st, week=1, day="friday", step="load", moorings=moorings, leaving=1,
            order=("red", "green", "yellow", "mauve"))
    gulden = CURRENCIES.index("gulden")
    before = st.seat("red").money[gulden]
    for p in ("red", "green", "yellow"):
        st = act(st, type="pass", player=p)
    last, st = st, act(st, type="pass", player="mauve")
    assert "The ships leave: Red 9 gulden." in aftermath(last, st)
    assert st.seat("red").money[gulden] == before + 9
    assert st.seat("red").street("friday") == 1
    assert st.step == "ship" and len(st.moorings) == 3  # a new ship for mooring IV


def test_the_reliquary_doubles_four_to_eight() -> None:
    """« vert a acheté … une relique de Bruges. Dans ce tour, il achète un reliquaire
    approprié … 8 points de victoire au lieu de 4 »."""
    st = ready(FOUR)
    relic = Relic("Bruges relic", "bruges", "relic", 3, 4)
    box = Relic("Bruges reliquary", "bruges", "reliquary", 2, 0)
    st = st.with_seat(replace(st.seat("green"), relics=(relic,)))
    from companion.colonia.state import Shown

    st = at(st, week=1, day="sunday", step="buy", order=("green", "red", "yellow", "mauve"),
            display=(Shown(box), *st.display[1:]))
    assert score(st, "green").relics == 4
    st = act(st, type="buy_relic", player="green", card="Bruges reliquary", into="Bruges relic")
    green = score(st, "green")
    assert (green.relics, green.doubled, green.total) == (0, 8, 8)


def test_londons_stained_glass() -> None:
    """« vert … 10 Pfund Sterling, mauve 3, jaune 2, rouge 4 … vert … reçoit donc le vitrail
    de London. Si un autre joueur possédait aussi 10 livres, personne »."""
    assert stained_glass({"green": 10, "mauve": 3, "yellow": 2, "red": 4}) == "green"
    assert stained_glass({"green": 10, "mauve": 3, "yellow": 10, "red": 4}) is None


def test_the_final_score_is_twenty_three() -> None:
    """« Reliques seules : 1+2+2+3+3 = 11 … 2 × 5 = 10 … reliquaire sans relique 0 …
    Vitraux 1 × 2 PV … Total : 23 PV » — through the game's end."""
    st = ready(FOUR)
    alone = tuple(Relic(f"r{v}{i}", "london", "relic", 1, v) for i, v in enumerate((1, 2, 2, 3, 3)))
    kept = Relic("bergen five", "bergen", "relic", 1, 5)
    boxes = (Relic("bergen box", "bergen", "reliquary", 1, 0),
             Relic("novgorod box", "novgorod", "reliquary", 1, 0))
    money = {"green": (10, 0, 0, 0), "mauve": (3, 0, 0, 0), "yellow": (2, 0, 0, 0),
             "red": (4, 0, 0, 0)}
    for color, m in money.items():
        st = st.with_seat(replace(st.seat(color), money=m))
    st = st.with_seat(replace(st.seat("green"), relics=(*alone, kept, *boxes),
                              kept=(("bergen box", "bergen five"),)))
    st = at(st, week=6, day="sunday", step="buy", order=("green", "red", "yellow", "mauve"))
    for p in ("green", "red", "yellow", "mauve"):
        st = act(st, type="pass", player=p)
    assert st.step == "over" and st.windows == (("pound", "green"),)
    green = score(st, "green")
    assert (green.relics, green.doubled, green.window_vp, green.total) == (11, 10, 2, 23)
    assert st.seat("green").money[0] == 0  # the window's money went to the bank
    assert MATERIALS[0] == "leather"


def test_a_house_rule_keeps_the_windows_money() -> None:
    from companion.colonia.record import make_header, start

    header = make_header(FOUR, house={"stained_glass_keeps_money": True})
    assert header["house_rules"]["stained_glass_keeps_money"] is True
    assert not any(v for k, v in header["house_rules"].items() if k != "stained_glass_keeps_money")
    with pytest.raises(ValueError, match="house rules"):
        make_header(FOUR, house={"zero": True})
    st = start(header)
    assert st.house == {"stained_glass_keeps_money"}
    plain = ready(FOUR)
    st = replace(plain, house=st.house)
    st = st.with_seat(replace(st.seat("green"), money=(10, 0, 0, 0)))
    st = at(st, week=6, day="sunday", step="buy", order=("green", "red", "yellow", "mauve"))
    for p in ("green", "red", "yellow", "mauve"):
        st = act(st, type="pass", player=p)
    assert st.windows == (("pound", "green"),) and st.seat("green").money[0] == 10


def test_a_deck_the_box_knows_whole_is_drawn_virtually() -> None:
    """The week, decree, ship and relic decks (14, 18, 16, 48 cards: « Matériel ») are
    drawn virtually once the box knows every card, from the cards not yet turned up;
    before that (or with a misnamed card too many), they are turned up by hand."""
    from colonia_kit import learned

    from companion.colonia.cards import DECK_SIZES, whole_deck
    from companion.colonia.game import GAME
    from companion.colonia.record import make_header, start

    box = learned(4)
    st = start(make_header(FOUR, cards=box))
    assert st.step == "ship"
    spec = GAME.chance_spec(st)
    assert spec is not None and spec.kind == "ship deck" and len(spec.contents) == 16
    st = GAME.apply(st, spec.action(["S7"]))
    assert st.moorings[0].ship.name == "S7"
    spec = GAME.chance_spec(st)
    assert spec is not None and "S7" not in spec.contents and len(spec.contents) == 15
    for deck, n in DECK_SIZES.items():
        assert whole_deck(st.cards, deck) is not None and n == len(whole_deck(st.cards, deck) or ())
    partial = {**box, "colonia.ship": {k: v for k, v in box["colonia.ship"].items() if k != "S1"}}
    assert GAME.chance_spec(start(make_header(FOUR, cards=partial))) is None
    extra = {**box, "colonia.ship": {**box["colonia.ship"], "S17 (misnamed)": box["colonia.ship"]["S1"]}}
    assert GAME.chance_spec(start(make_header(FOUR, cards=extra))) is None
