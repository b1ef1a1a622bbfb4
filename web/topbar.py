"""The top bar of the pages, by the game being played: each game names its own pages here
(Village its play page, green bag, mass and tags; Colonia its table page; Crecy its play
page and board), then the pages every game shares (new game, history).

Every page built on ``base.html`` gets ``topbar`` (the links, the one in view marked) and
``game`` (the current game's name and label) from `register`. A page of Village's only
(the green bag, the mass, a player's Village view) reached while another game is played
says which game that is, with a link to its page (`elsewhere`), instead of Village's.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from flask import Flask, request

from companion import games
from companion.table.errors import NoGame
from web.access import service
from web.game_choices import OTHER_GAMES


class Link(NamedTuple):
    """One link of the bar: its words, its address, and the endpoints it stands for (the
    link is marked as the page in view on any of them)."""

    label: str
    href: str
    endpoints: tuple[str, ...]


VILLAGE = games.DEFAULT

GAME_LINKS: dict[str, tuple[Link, ...]] = {
    VILLAGE: (
        Link("Scoreboard", "/", ("pages.scoreboard",)),
        Link("Play", "/play", ("pages.play",)),
        Link("Green bag", "/bag", ("pages.green_bag",)),
        Link("Mass", "/mass", ("pages.mass",)),
        Link("Tags", "/tags", ("tags.tags_page", "zones.readers_page")),
    ),
    "colonia": (
        Link("Table", "/colonia", ("pages.colonia",)),
        Link("Scoreboard", "/", ("pages.scoreboard",)),
        Link("Phones", "/links", ("pages.links", "pages.answer")),
    ),
    "crecy": (
        Link("Play", "/crecy", ("pages.crecy",)),
        Link("Board", "/crecy/board", ("pages.crecy_board", "pages.scoreboard")),
        Link("Phones", "/links", ("pages.links", "pages.crecy_phone")),
    ),
}
"""Each game's own links, in the bar's order (a game added to the platform adds one
entry; a game without one gets only the shared links)."""

SHARED_LINKS: tuple[Link, ...] = (
    Link("New game", "/new", ("pages.new_game",)),
    Link("History", "/history", ("playlogs.history_page",)),
)
"""The links every game's bar ends with."""

VILLAGE_ONLY: frozenset[str] = frozenset({"pages.green_bag", "pages.mass", "pages.player_view"})
"""The pages that mean something only in a game of Village (its bags, its private view)."""


FOLLOWING: frozenset[str] = frozenset({
    "pages.scoreboard", "pages.play", "pages.green_bag", "pages.mass", "pages.links",
    "pages.colonia", "pages.crecy", "pages.crecy_board"})
"""The pages that load again by themselves when a game of another kind is played (their bar
and content are the game's; none holds anything typed). The others (new game, box check,
tags, a phone's page…) keep what is on them: their bar follows at their next load."""


def current_game() -> str:
    """The current game's name (the record header's ``game``); Village before any game."""
    try:
        return str(service().header().get("game", VILLAGE))
    except NoGame:
        return VILLAGE


def game_label(name: str) -> str:
    """A game's name in words."""
    return "Village" if name == VILLAGE else str(OTHER_GAMES.get(name, {}).get("label", name))


def table_page(name: str) -> str:
    """The page a game is played from at the table."""
    return "/play" if name == VILLAGE else str(OTHER_GAMES.get(name, {}).get("table_page", "/"))


def links(name: str, endpoint: str | None) -> list[dict[str, Any]]:
    """The bar of game ``name`` as ``{"label", "href", "current"}``, ``current`` true on the
    link of ``endpoint`` (the page in view)."""
    return [{"label": link.label, "href": link.href, "current": endpoint in link.endpoints}
            for link in (*GAME_LINKS.get(name, ()), *SHARED_LINKS)]


def elsewhere(name: str, endpoint: str | None) -> dict[str, str] | None:
    """For a page of Village's only (`VILLAGE_ONLY`) while game ``name`` is another one:
    that game's label and table page, for the page to say so; None otherwise."""
    if name == VILLAGE or endpoint not in VILLAGE_ONLY:
        return None
    return {"label": game_label(name), "href": table_page(name)}


def _context() -> dict[str, Any]:
    name = current_game()
    return {
        "topbar": links(name, request.endpoint),
        "game": {"name": name, "label": game_label(name)},
        "elsewhere": elsewhere(name, request.endpoint),
        "follows_game": request.endpoint in FOLLOWING,
    }


def register(app: Flask) -> None:
    """Give every template of ``app`` the bar of the current game (``topbar``), the game
    (``game``), whether the page loads again for another game (``follows_game``) and, on a
    page of Village's only during another game, ``elsewhere``."""
    app.context_processor(_context)
