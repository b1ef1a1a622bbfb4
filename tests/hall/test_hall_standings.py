"""Standings by the organiser's rules (pure): points by place, then the chosen tie-breaks in
their order, then a shared place; the league's per-person figures; the cards' ranking."""

from __future__ import annotations

import pytest

from companion.hall.scoreboard import card, ranking
from companion.hall.standings import Result, check_rules, league, standings
from web.hall_tournament import parse_round


def R(person: str, place: int, prestige: int, customers: int = 0, living: int = 0,
      rnd: int = 1, modules: tuple[str, ...] = ()) -> Result:
    return Result(person, place, prestige, customers, living, rnd, "t", modules)


GAMES = [  # two rounds, two tables of two
    R("Ann", 1, 40, 3, 2, 1), R("Bob", 2, 38, 4, 3, 1),
    R("Cid", 1, 30, 2, 2, 1), R("Dee", 2, 30, 2, 1, 1),
    R("Ann", 2, 20, 1, 1, 2), R("Cid", 1, 25, 2, 2, 2),
    R("Bob", 1, 44, 5, 1, 2), R("Dee", 2, 35, 3, 3, 2),
]


def test_points_then_the_organisers_tie_breaks_in_order() -> None:
    # points 3/1: Ann 4, Bob 4, Cid 6, Dee 2; Ann and Bob tied on points
    rows = standings(GAMES, points=[3, 1])
    assert [(s.person, s.points, s.place) for s in rows] == [
        ("Cid", 6, 1), ("Bob", 4, 2), ("Ann", 4, 3), ("Dee", 2, 4)]  # Bob's prestige 82 > 60
    assert rows[1].rounds == {1: 1, 2: 3}
    # the organiser puts "best" first: Bob's 44 still beats Ann's 40
    assert [s.person for s in standings(GAMES, [3, 1], ["best"])][1:3] == ["Bob", "Ann"]
    # with no tie-break at all, Ann and Bob share second place (listed by name)
    rows = standings(GAMES, [3, 1], [])
    assert [(s.person, s.place) for s in rows] == [("Cid", 1), ("Ann", 2), ("Bob", 2), ("Dee", 4)]


def test_shared_places_in_a_game_and_places_past_the_points() -> None:
    rows = standings([R("A", 1, 10), R("B", 1, 10), R("C", 3, 5)], points=[5, 3])
    assert [(s.person, s.points) for s in rows] == [("A", 5), ("B", 5), ("C", 0)]


@pytest.mark.parametrize("points, ties", [
    ([], []), ([3, -1], []), ("3,2", []), ([3, True], []), ([3], ["coins"]),
    ([3], ["wins", "wins"])])
def test_bad_rules_are_refused(points: object, ties: object) -> None:
    with pytest.raises(ValueError):
        check_rules(points, ties)


def test_league_by_person_and_by_modules() -> None:
    people = league([*GAMES, R("Ann", 1, 50, modules=("port",))])
    ann = next(p for p in people if p["person"] == "Ann")
    assert (ann["games"], ann["wins"], ann["average"], ann["best"]) == (3, 2, 36.7, 50)
    assert ann["by_modules"]["port"] == {"games": 1, "wins": 1, "best": 50, "average": 50.0}
    assert ann["by_modules"]["base"]["games"] == 2
    assert [p["person"] for p in people] == ["Ann", "Cid", "Bob", "Dee"]  # wins, then games


def test_a_cards_ranking_follows_villages_own_order() -> None:
    view = {"game": "village", "round": 5, "over": False, "players": {
        "red": {"score": {"public_total": 12}, "customers": {"count": 1}, "living": 4,
                "time_track": {"to_bridge": 3}, "next_to_die": ["red-1a"]},
        "blue": {"score": {"public_total": 12}, "customers": {"count": 2}, "living": 2,
                 "time_track": {"to_bridge": 1}, "next_to_die": ["blue-1b"]},
        "white": {"score": {"public_total": 3}, "customers": {"count": 0}, "living": 5,
                  "time_track": {"to_bridge": 6}}}}
    assert [(r["player"], r["place"]) for r in ranking(view)] == [
        ("blue", 1), ("red", 2), ("white", 3)]
    c = card("t1", 1, 40, view)
    assert c["leaders"] == ["blue"] and c["round"] == 5
    assert c["next_to_die"] == {"player": "blue", "to_bridge": 1, "members": ["blue-1b"]}
    assert card("t1", 1, 0, None) == {"table": "t1", "game_id": 1, "seq": 0}


def test_a_round_written_one_table_a_line() -> None:
    assert parse_round("cafe-1: red=Ann, Blue = Bob\n\ncafe-2: white=Cid,yellow=Dee") == {
        "cafe-1": {"red": "Ann", "blue": "Bob"}, "cafe-2": {"white": "Cid", "yellow": "Dee"}}
    for bad in ("red=Ann", "cafe-1: Ann"):
        with pytest.raises(ValueError):
            parse_round(bad)
