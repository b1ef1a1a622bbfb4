"""Decrees voted and, when adopted, applied on their day (seed 004, « Explication des
cartes »): the effects the engine applies; any other is voted and recorded only."""

from __future__ import annotations

from dataclasses import replace

import pytest
from colonia_kit import act, at, ready

from companion.colonia.cards import Decree, known
from companion.colonia.game import GAME
from companion.colonia.state import State, Voting

FOUR = ["mauve", "green", "yellow", "red"]


def _voting(effect: str, day: int, name: str) -> State:
    st = ready(FOUR)
    for color, w in {"mauve": 5, "green": 3, "red": 7, "yellow": 4}.items():
        st = st.with_seat(replace(st.seat(color), votes=w, card=w))
    return at(st, week=2, day=name, step="vote", order=("red", "mauve", "yellow", "green"),
              decrees=(Voting(Decree("D", day, None, effect)),),
              stalls=((1, 1, 0, 0, 0), (0, 0, 1, 0, 0)), bought=(None, None),
              bag=(17, 17, 17, 18, 18), sticks=(1, 1, 1, 1, 1))


def _all(vote: str) -> dict[str, str]:
    return dict.fromkeys(FOUR, vote)


@pytest.mark.parametrize("vote", ["yes", "no"])
def test_the_tailor_takes_two_extra_orders(vote: str) -> None:
    """« Le tailleur … exécute deux commandes supplémentaires »."""
    st = act(_voting("extra_orders_tailor", 4, "thursday"), type="reveal_votes",
             answers=_all(vote))
    assert st.sticks == ((1, 1, 1, 3, 1) if vote == "yes" else (1, 1, 1, 1, 1))
    assert st.step == "order"


def test_one_member_less_next_week() -> None:
    """« Chaque famille envoie la semaine suivante un membre de moins »: the card still
    sets the order and the votes."""
    st = act(_voting("one_less_member", 6, "saturday"), type="reveal_votes", answers=_all("yes"))
    assert st.fewer == 3
    st = at(st, week=3, day="tuesday", step="family")
    st = act(st, type="reveal_family", answers={"mauve": 7, "green": 3, "yellow": 5, "red": 6})
    mauve = st.seat("mauve")
    assert mauve.street("tuesday") == 6 and mauve.votes == 7 and st.order[0] == "mauve"


def test_one_more_material_per_stall_from_the_bag() -> None:
    """« Pour chaque stand du marché, on tire du sac 1 matière première de plus »."""
    st = act(_voting("more_materials", 3, "wednesday"), type="reveal_votes", answers=_all("yes"))
    assert st.step == "more_stalls"
    spec = GAME.chance_spec(st)
    assert spec is not None and spec.count == 2 and spec.slots == ("1", "2")
    st = act(st, type="add_materials", stalls=[["fur"], ["fur"]])
    assert st.stalls == ((1, 1, 0, 0, 1), (0, 0, 1, 0, 1)) and st.bag == (17, 17, 17, 18, 16)
    assert st.step == "market"


def test_two_foreign_merchants_bring_two_stalls_of_four() -> None:
    st = act(_voting("foreign_merchants", 3, "wednesday"), type="reveal_votes",
             answers=_all("yes"))
    assert st.step == "merchants"
    with pytest.raises(Exception, match="4, 4"):
        act(st, type="add_materials", stalls=[["fur"], ["fur"]])
    st = act(st, type="add_materials",
             stalls=[["fur", "fur", "linen", "wood"], ["iron", "iron", "iron", "leather"]])
    assert len(st.stalls) == 4 and sum(st.stalls[3]) == 4 and st.bought == (None,) * 4


def test_two_relics_on_the_extra_places() -> None:
    st = act(_voting("two_relics", 6, "saturday"), type="reveal_votes", answers=_all("yes"))
    assert st.step == "extra_relic" and len(st.display) == 10
    st = act(st, type="reveal", deck="relic", card="R11")
    st = act(st, type="reveal", deck="relic", card="R12")
    assert len(st.display) == 12 and (st.day, st.step) == ("sunday", "buy")  # ships left


def test_another_decree_is_voted_and_recorded_only() -> None:
    st = act(_voting("other", 3, "wednesday"), type="reveal_votes", answers=_all("yes"))
    assert st.decrees[0].adopted is True and st.step == "market"


def test_two_ships_leave_at_once_and_new_ones_come() -> None:
    """« Les deux bateaux aux emplacements I et II quittent le port et sont … décomptés. Les
    deux autres bateaux sont avancés et les places … de nouveau remplies »."""
    st = _voting("two_ships_leave", 5, "friday")
    first = st.moorings[0]
    loaded = replace(first, loaded=("red", None, None))
    st = at(st, moorings=(loaded, *st.moorings[1:]), leaving=3)
    gulden = 3
    before = st.seat("red").money[gulden]
    st = act(st, type="reveal_votes", answers=_all("yes"))
    assert st.seat("red").money[gulden] == before + 9 and st.seat("red").street("friday") == 1
    assert st.step == "ship" and len(st.moorings) == 2 and st.leaving == 3
    st = act(st, type="reveal", deck="ship", card="S5")
    st = act(st, type="reveal", deck="ship", card="S6")
    assert (st.day, st.step) == ("friday", "load")


def test_up_to_three_members_home_from_the_thursday_street() -> None:
    st = _voting("members_home_thursday", 5, "friday")
    st = st.with_seat(replace(st.seat("red"), reserve=10, streets=(0, 0, 5, 0)))
    st = act(st, type="reveal_votes", answers=_all("yes"))
    assert st.step == "home" and st.to_move() == "red"
    with pytest.raises(Exception, match="up to 3"):
        act(st, type="home", player="red", members=4)
    st = act(st, type="home", player="red", members=3)
    assert (st.seat("red").reserve, st.seat("red").street("thursday")) == (13, 2)
    for p in ("mauve", "yellow", "green"):
        st = act(st, type="pass", player=p)
    assert st.step == "load"


def test_money_exchanged_one_for_one_up_to_five() -> None:
    st = act(_voting("exchange_money", 6, "saturday"), type="reveal_votes", answers=_all("yes"))
    assert st.step == "exchange" and st.to_move() == "red"
    st = act(st, type="exchange", player="red", give="pound", get="gulden", amount=5)
    assert st.seat("red").money == (0, 5, 5, 10)
    with pytest.raises(Exception, match="up to 5"):
        act(st, type="exchange", player="mauve", give="pound", get="mark", amount=6)


def test_each_player_rolls_for_a_good() -> None:
    """« Chaque joueur lance le dé et reçoit une marchandise selon son résultat »: 1–5 the
    good of that craftsman, 6 a good of the player's choice (the seed is silent)."""
    st = act(_voting("good_roll", 5, "friday"), type="reveal_votes", answers=_all("yes"))
    assert st.step == "good_roll" and st.rolling == ("red", "mauve", "yellow", "green")
    assert GAME.chance_spec(st) is not None
    st = act(st, type="good_roll", face=3)  # red: the painter's painting
    st = act(st, type="good_roll", face=6)  # mauve chooses
    assert st.step == "pick_good" and GAME.pending(st).player == "mauve"
    st = act(st, type="pick_good", player="mauve", good="clothing")
    st = act(st, type="good_roll", face=1)
    st = act(st, type="good_roll", face=5)
    assert st.seat("red").goods == (0, 0, 1, 0, 0) and st.seat("mauve").goods == (0, 0, 0, 1, 0)
    assert st.step == "load" and st.supply == (11, 12, 11, 11, 11)


def test_an_extra_hold_on_every_ship_worth_two() -> None:
    """« Chaque bateau dans le port reçoit dans ce tour 1 soute supplémentaire de la valeur
    de 2 pour une marchandise quelconque … un membre de la famille sur le blason »."""
    st = _voting("extra_hold", 5, "friday")
    st = st.with_seat(replace(st.seat("red"), goods=(0, 1, 0, 0, 0)))
    st = act(at(st, leaving=1), type="reveal_votes", answers=_all("yes"))
    assert st.step == "load" and st.to_move() == "red"
    st = act(st, type="load_extra", player="red", ship=1, good="wheel")
    assert st.moorings[0].crest == "red" and st.seat("red").goods == (0, 0, 0, 0, 0)
    with pytest.raises(Exception, match="extra hold"):
        act(st, type="load_extra", player="mauve", ship=1, good="wheel")
    for p in ("mauve", "yellow", "green", "red"):
        st = act(st, type="pass", player=p)
    assert st.seat("red").money == (5, 5, 5, 7)  # the Bruges ship paid 2 gulden


def _two_each() -> State:
    return act(_voting("two_materials_each", 4, "thursday"), type="reveal_votes",
               answers=_all("yes"))


def test_two_materials_each_from_the_bag_behind_the_screens() -> None:
    """« Chaque joueur peut tirer immédiatement deux matières premières du sac »: in the
    coat-of-arms order, each behind their screen; the day carries on."""
    st = _two_each()
    assert st.step == "private_materials"
    spec = GAME.chance_spec(st)
    assert spec is not None and spec.slots == ("red", "red", "mauve", "mauve", "yellow",
                                               "yellow", "green", "green")
    drawn = {"red": ["fur", "fur"], "mauve": ["iron", "wood"], "yellow": ["linen", "fur"],
             "green": ["leather", "leather"]}
    after = act(st, type="draw_materials", drawn=drawn)
    assert after.seat("red").materials == (0, 0, 0, 0, 2)
    assert after.seat("green").materials == (2, 0, 0, 0, 0)
    assert after.bag == (15, 16, 16, 17, 15) and after.unseen == 8
    assert after.step == "order"
    with pytest.raises(Exception, match="each player draws 2"):
        act(st, type="draw_materials", drawn={**drawn, "red": ["fur"]})


def test_a_short_bag_gives_the_first_in_the_coat_of_arms_order() -> None:
    st = replace(_two_each(), bag=(0, 0, 0, 1, 2))
    assert GAME.chance_spec(st).slots == ("red", "red", "mauve")  # type: ignore[union-attr]
    st = act(st, type="draw_materials", drawn={"red": ["fur", "linen"], "mauve": ["fur"],
                                               "yellow": [], "green": []})
    assert st.bag == (0, 0, 0, 0, 0) and st.unseen == 3


def test_the_materials_drawn_behind_the_screens_reach_only_their_owner() -> None:
    """Two draws with the same counts and different materials: every output but the
    owner's is the same (the table's view, the other players', the public action, the
    narration), and the draw's seed is withheld until the end; the bag shows only its
    count from then on, and later draws from it withhold their seed too."""
    from companion.table.disclosure import is_private_draw, public_draw

    st = _two_each()
    one = {"red": ["fur", "fur"], "mauve": ["iron", "wood"], "yellow": ["linen", "fur"],
           "green": ["leather", "leather"]}
    two = {**one, "red": ["iron", "linen"]}
    a, b = (GAME.parse_action({"type": "draw_materials", "drawn": d}) for d in (one, two))
    sa, sb = GAME.apply(st, a), GAME.apply(st, b)
    for viewer in ("table", "mauve", "yellow", "green"):
        assert GAME.view(sa, viewer) == GAME.view(sb, viewer), viewer
    assert GAME.view(sa, "red") != GAME.view(sb, "red")
    assert GAME.public_action(a.to_json()) == GAME.public_action(b.to_json()) == {
        "type": "draw_materials", "drawn": dict.fromkeys(one, 2)}
    assert GAME.narrate(st, a, sa) == GAME.narrate(st, b, sb)
    assert GAME.view(sa, "table")["bag"] is None and GAME.view(sa, "table")["bag_count"] == 79
    payload = {**a.to_json(), "_draw": {"kind": "private_materials", "seed": "s", "digest": "d"}}
    assert is_private_draw(GAME, payload)
    assert public_draw(GAME, payload, over=False) == {"kind": "private_materials",
                                                      "digest": "d", "withheld": True}
    # the next stalls' draw from this bag: its seed would tell the bag, so it is withheld
    monday = replace(sa, step="stalls", week_card=known(st.cards, "colonia.week", "W1"),
                     stalls=(), bought=())
    spec = GAME.chance_spec(monday)
    assert spec is not None
    fill = spec.action(list(spec.contents[:spec.count]))
    assert fill["bag_unseen"] is True and is_private_draw(GAME, {**fill, "_draw": {}})
    GAME.apply(monday, fill)
    plain = replace(monday, unseen=0)
    with pytest.raises(Exception, match="content is public"):
        GAME.apply(plain, fill)
    assert "bag_unseen" not in GAME.chance_spec(plain).action(  # type: ignore[union-attr]
        list(spec.contents[:spec.count]))

