"""The final scoring told line by line, from the seed's examples (London's stained glass,
the final 23 VP), revealed only at the end."""

from __future__ import annotations

from dataclasses import replace

from colonia_kit import act, at, ready

from companion.colonia.cards import Relic
from companion.colonia.final import final_scoring
from companion.colonia.game import GAME
from companion.colonia.state import State

FOUR = ["mauve", "green", "yellow", "red"]


def _last_sunday(money: dict[str, tuple[int, ...]]) -> State:
    st = ready(FOUR)
    alone = tuple(Relic(f"r{v}{i}", "london", "relic", 1, v) for i, v in enumerate((1, 2, 2, 3, 3)))
    kept = Relic("bergen five", "bergen", "relic", 1, 5)
    boxes = (Relic("bergen box", "bergen", "reliquary", 1, 0),
             Relic("novgorod box", "novgorod", "reliquary", 1, 0))
    for color, m in money.items():
        st = st.with_seat(replace(st.seat(color), money=m))
    st = st.with_seat(replace(st.seat("green"), relics=(*alone, kept, *boxes),
                              kept=(("bergen box", "bergen five"),)))
    return at(st, week=6, day="sunday", step="buy", order=("green", "red", "yellow", "mauve"))


def _end(st: State) -> State:
    for p in ("green", "red", "yellow", "mauve"):
        st = act(st, type="pass", player=p)
    return st


def test_the_final_scoring_tells_the_seeds_23_points() -> None:
    """« vert … 10 Pfund Sterling, mauve 3, jaune 2, rouge 4 … Reliques seules : 1+2+2+3+3
    = 11 … 2 × 5 = 10 … reliquaire sans relique 0 … Vitraux 1 × 2 PV … Total : 23 PV »."""
    before = _last_sunday({"green": (10, 0, 0, 0), "mauve": (3, 0, 0, 0),
                           "yellow": (2, 0, 0, 0), "red": (4, 0, 0, 0)})
    assert final_scoring(before) is None
    assert "final" not in GAME.view(before, "table") and "final" not in GAME.view(before, "green")
    st = _end(before)
    told = final_scoring(st)
    assert told is not None
    pound = told["windows"][0]
    assert pound["money"] == {"mauve": 3, "green": 10, "yellow": 2, "red": 4}
    assert pound["winner"] == "green" and pound["vp"] == 2
    assert pound["line"].startswith("Stained glass, pound: Green 10, Red 4, Mauve 3, Yellow 2")
    assert "the 10 pound go to the bank" in pound["line"]
    assert "nobody has any" in told["windows"][1]["line"]
    green = next(p for p in told["players"] if p["color"] == "green")
    assert (green["relic_points"], green["doubled"], green["window_vp"], green["total"]) == (
        11, 10, 2, 23)
    assert green["empty_reliquaries"] == ["novgorod box"]
    assert green["line"] == ("Green: relics 11 (r10 1, r21 2, r22 2, r33 3, r34 3) + in "
                             "reliquaries 10 (bergen five 5×2 in bergen box) + stained glass "
                             "2 (pound) = 23 VP; empty reliquaries score 0 (novgorod box).")
    assert told["lines"][4 + 4] == "1. Green, 23 VP."  # after 4 windows and 4 players
    assert GAME.view(st, "table")["final"] == told


def test_a_tie_gives_no_window_and_the_tie_breaks_are_told() -> None:
    """« Si un autre joueur possédait aussi 10 livres, personne ne recevrait le vitrail »;
    equal points are settled by money left, then goods, then materials."""
    st = _end(_last_sunday({"green": (10, 0, 0, 0), "mauve": (3, 0, 1, 0),
                            "yellow": (10, 0, 0, 0), "red": (4, 0, 0, 0)}))
    told = final_scoring(st)
    assert told is not None
    assert told["windows"][0]["winner"] is None
    assert "Green and Yellow tie at 10: nobody wins this window." in told["windows"][0]["line"]
    assert told["windows"][2]["winner"] == "mauve"
    # yellow (10 money) ahead of red (4) at 0 VP: told by money left
    assert any("Yellow ahead of Red at 0 VP on money left (10 to 4)" in line
               for line in told["lines"])
