"""A finished game as the play-log apps take it: a BG Stats play file (``.bgsplay``) and a
BoardGameGeek play (the XML of BGG's plays API, and the fields of its play form). Pure.

Formats, as published (docs/hall.md, « Play logs », has the sources): BG Stats' play file is
a JSON object with an ``about`` text, ``players``, ``locations``, ``games`` and ``plays``
(each play: ``gameRefId``, ``playDate`` "YYYY-MM-DD HH:MM:SS", ``durationMin``,
``playerScores`` with ``playerRefId``, ``score`` as text, ``winner``, ``startPlayer``,
``seatOrder``, ``rank``, ``expansionPlays`` with ``gameRefId``); BGG's play is ``<play
date quantity length incomplete nowinstats location>`` with ``<item name objecttype
objectid>`` and ``<players><player name startposition color score new win/>``, and its form
(``geekplay.php``, action ``save``) takes ``playdate``, ``length``, ``objectid`` and
``players[i][name|color|position|score|win|new]``.

Identifiers are derived from the game (table, game id, players), never random: exporting a
game twice gives the same file, so BG Stats recognises a play it already holds.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final
from xml.sax.saxutils import quoteattr

__all__ = ["GAMES", "PlayLog", "Seat", "bgg_form", "bgg_xml", "bgsplay", "module_tag", "play_log",
           "ranking", "statistics", "tally"]

_NS: Final = uuid.UUID("6f1c8d2e-2b5c-4f0e-9a51-5b1f0c2d7a11")  # this project's namespace
ABOUT: Final = ("A play recorded by the Village table companion. Open it with Board Game"
                " Stats (share, export or open-in) to add the play to your log.")


@dataclass(frozen=True)
class GameInfo:
    """How the play-log apps know a game of ours: its name, BGG id (0: unknown) and year,
    and its modules' names."""

    name: str
    bgg_id: int
    year: int
    modules: dict[str, str]


GAMES: Final[dict[str, GameInfo]] = {
    # BGG's page https://boardgamegeek.com/boardgame/104006/village (Inka & Markus Brand,
    # 2011). The modules' own BGG entries are not given: BG Stats takes an expansion by name.
    "village": GameInfo("Village", 104006, 2011,
                        {"port": "Village: Port", "life_goals": "Village: Life goals"}),
}


@dataclass(frozen=True)
class Seat:
    """One player's line of a finished game."""

    player: str
    """Who (a name given by the organiser, or the family's colour)."""
    colour: str
    seat: int
    """1 for the first seat of the table's order."""
    score: int
    place: int
    winner: bool
    start: bool
    customers: int = 0
    living: int = 0


@dataclass(frozen=True)
class PlayLog:
    """One finished game, ready to export."""

    key: str
    """What makes the game itself (table and game id), for the derived identifiers."""
    game: str
    modules: tuple[str, ...]
    started: datetime
    ended: datetime
    seats: tuple[Seat, ...]
    rounds: int = 0
    location: str | None = None
    comments: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def minutes(self) -> int:
        return max(0, round((self.ended - self.started).total_seconds() / 60))

    @property
    def info(self) -> GameInfo:
        return GAMES.get(self.game, GameInfo(self.game.capitalize(), 0, 0, {}))


def _customers(p: dict[str, Any]) -> int:
    served = p.get("customers")
    if isinstance(served, list):
        return len(served)
    if isinstance(served, dict):  # face down while the game runs: only their count shows
        return int(served.get("count", 0))
    return 0


def _points(p: dict[str, Any]) -> int:
    score = p.get("score") or {}
    total = score.get("total")
    if total is None:
        total = score.get("public_total", p.get("prestige", 0))
    return int(total or 0)


def ranking(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The players of a Village table view best first by the game's own order (most
    prestige, then most customers served, then most living members:
    `companion.village.scoring.ranking_key`), each with ``player``, ``points``,
    ``customers``, ``living`` and ``place`` (tied players share a place)."""
    players: dict[str, Any] = view.get("players") or {}
    rows: list[dict[str, Any]] = [
        {"player": c, "points": _points(p), "customers": _customers(p),
         "living": int(p.get("living", 0))} for c, p in players.items()]
    rows.sort(key=lambda r: (-r["points"], -r["customers"], -r["living"]))
    place, last = 0, None
    for i, r in enumerate(rows, 1):
        key = (r["points"], r["customers"], r["living"])
        if key != last:
            place, last = i, key
        r["place"] = place
    return rows


def play_log(key: str, header: dict[str, Any], view: dict[str, Any], started: str,
             ended: str, names: dict[str, str] | None = None,
             location: str | None = None) -> PlayLog:
    """The play log of a finished game: its public ``header`` (``game``, ``players`` in seat
    order, ``first_player``, ``expansions``), its final table ``view``, the table times of
    its first and last events (ISO 8601). ``names``: colour → person (default the colour).
    Raises ValueError for a game not over or times it cannot read."""
    if not view.get("over"):
        raise ValueError("the game is not over: there is no play to log yet")
    seats = list(header.get("players") or view.get("seats") or [])
    winners = set(view.get("winner") or [])
    first = header.get("first_player") or view.get("first_player")
    names = names or {}
    rows = {r["player"]: r for r in ranking(view)}
    out = tuple(Seat(names.get(c, c.capitalize()), c, i, rows[c]["points"], rows[c]["place"],
                     c in winners, c == first, rows[c]["customers"], rows[c]["living"])
                for i, c in enumerate(seats, 1) if c in rows)
    return PlayLog(key, str(header.get("game", view.get("game", "village"))),
                   tuple(header.get("expansions") or view.get("modules") or ()),
                   _time(started), _time(ended), out, int(view.get("round") or 0), location)


def _time(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (AttributeError, ValueError) as exc:
        raise ValueError(f"not an ISO 8601 time: {text!r}") from exc


def _stamp(t: datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M:%S")


def _uuid(*parts: object) -> str:
    return str(uuid.uuid5(_NS, "/".join(str(p) for p in parts)))


def bgsplay(log: PlayLog) -> dict[str, Any]:
    """The BG Stats play file of ``log`` (a JSON object)."""
    info = log.info
    when = _stamp(log.ended)
    players = [{"id": i, "uuid": _uuid("player", s.player), "name": s.player,
                "isAnonymous": False, "modificationDate": when}
               for i, s in enumerate(log.seats, 1)]
    games = [{"id": 1, "uuid": _uuid("game", log.game), "name": info.name, "bggId": info.bgg_id,
              "bggYear": info.year, "cooperative": False, "highestWins": True,
              "noPoints": False, "usesTeams": False, "isBaseGame": 1, "isExpansion": 0,
              "modificationDate": when}]
    for m in log.modules:
        games.append({"id": len(games) + 1, "uuid": _uuid("game", log.game, m),
                      "name": info.modules.get(m, f"{info.name}: {m}"), "bggId": 0,
                      "cooperative": False, "highestWins": True, "noPoints": False,
                      "usesTeams": False, "isBaseGame": 0, "isExpansion": 1,
                      "modificationDate": when})
    locations = [] if not log.location else [
        {"id": 1, "uuid": _uuid("location", log.location), "name": log.location,
         "modificationDate": when}]
    play: dict[str, Any] = {
        "uuid": _uuid("play", log.key), "gameRefId": 1, "playDate": _stamp(log.started),
        "entryDate": when, "modificationDate": when, "durationMin": log.minutes,
        "rounds": log.rounds, "ignored": False, "manualWinner": False, "usesTeams": False,
        "scoringSetting": 0, "rating": 0, "bggId": 0,
        "comments": log.comments or f"Recorded by the Village table companion ({log.key}).",
        "expansionPlays": [{"gameRefId": g["id"], "bggId": g["bggId"]} for g in games[1:]],
        "playerScores": [{"playerRefId": i, "score": str(s.score), "winner": s.winner,
                          "startPlayer": s.start, "seatOrder": s.seat, "rank": s.place,
                          "newPlayer": False, "role": s.colour}
                         for i, s in enumerate(log.seats, 1)],
    }
    if locations:
        play["locationRefId"] = 1
    return {"about": ABOUT, "players": players, "locations": locations, "games": games,
            "plays": [play]}


def bgg_xml(log: PlayLog) -> str:
    """The play as BGG's plays API writes one (``<plays><play …>…</play></plays>``)."""
    info = log.info
    location = quoteattr(log.location or "")
    lines = ['<?xml version="1.0" encoding="utf-8"?>', "<plays>",
             f'  <play date="{log.started:%Y-%m-%d}" quantity="1" length="{log.minutes}"'
             f' incomplete="0" nowinstats="0" location={location}>',
             f'    <item name={quoteattr(info.name)} objecttype="thing"'
             f' objectid="{info.bgg_id}"><subtypes><subtype value="boardgame"/></subtypes>'
             "</item>",
             f"    <comments>{_text(bgg_comments(log))}</comments>", "    <players>"]
    for s in log.seats:
        lines.append(f'      <player username="" userid="0" name={quoteattr(s.player)}'
                     f' startposition="{s.seat}" color={quoteattr(s.colour)}'
                     f' score="{s.score}" new="0" rating="0" win="{int(s.winner)}"/>')
    lines += ["    </players>", "  </play>", "</plays>", ""]
    return "\n".join(lines)


def _text(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def bgg_comments(log: PlayLog) -> str:
    """The play's summary in words, for BGG's comments."""
    mods = ", ".join(log.info.modules.get(m, m) for m in log.modules) or "base game"
    order = "; ".join(f"{s.place}. {s.player} ({s.colour}) {s.score}" for s in
                      sorted(log.seats, key=lambda s: (s.place, s.seat)))
    return f"{mods}; {log.rounds} rounds. {order}."


def bgg_form(log: PlayLog) -> dict[str, str]:
    """The fields of BGG's play form (``geekplay.php``, ``action=save``), to post while
    logged in to BGG."""
    form = {"action": "save", "objecttype": "thing", "objectid": str(log.info.bgg_id),
            "playdate": f"{log.started:%Y-%m-%d}", "quantity": "1",
            "length": str(log.minutes), "location": log.location or "", "incomplete": "0",
            "nowinstats": "0", "comments": bgg_comments(log)}
    for i, s in enumerate(log.seats):
        form.update({f"players[{i}][name]": s.player, f"players[{i}][color]": s.colour,
                     f"players[{i}][position]": str(s.seat), f"players[{i}][score]": str(s.score),
                     f"players[{i}][win]": str(int(s.winner)), f"players[{i}][new]": "0"})
    return form


def tally(rows: Iterable[tuple[str, str, int, bool]], who: str = "player") -> list[dict[str, Any]]:
    """Per person over ``rows`` (person, module tag, score, won): ``games``, ``wins``,
    ``average`` and ``best`` score, and the same by module tag (``by_modules``); most wins
    first, then most games, then by name. ``who``: the key naming the person."""
    people: dict[str, dict[str, Any]] = {}
    for person, tag, points, won in rows:
        p = people.setdefault(person, {who: person, "games": 0, "wins": 0, "total": 0,
                                       "best": 0, "by_modules": {}})
        m = p["by_modules"].setdefault(tag, {"games": 0, "wins": 0, "total": 0, "best": 0})
        for row in (p, m):
            row["games"] += 1
            row["wins"] += won
            row["total"] += points
            row["best"] = max(row["best"], points)
    for p in people.values():
        for row in (p, *p["by_modules"].values()):
            row["average"] = round(row.pop("total") / row["games"], 1)
    return sorted(people.values(), key=lambda p: (-p["wins"], -p["games"], p[who]))


def module_tag(modules: Iterable[str]) -> str:
    """"base", or the modules joined by "+" in name order."""
    return "+".join(sorted(modules)) or "base"


def statistics(logs: list[PlayLog]) -> list[dict[str, Any]]:
    """Per player over ``logs`` (`tally`)."""
    return tally((s.player, module_tag(log.modules), s.score, s.winner)
                 for log in logs for s in log.seats)
