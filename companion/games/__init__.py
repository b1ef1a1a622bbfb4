"""The seam between the table and the games it can hold.

A game is a package behind one protocol, `Game`: it writes and reads its record header,
checks and applies actions, lists the legal ones, says who must decide or what must be
drawn, shows the state to each viewer, narrates, and gives the public form of what is
private. The service, the bags, the pages and the command line find the game of a record
by its header's ``game`` field through this registry, and import no game by name:

    game = games.for_header(header)      # "village" today
    st = game.replay(header, actions)

A new game is a package with a module that defines ``GAME`` (an object with the methods
of `Game`), named here in `KNOWN` or added at run time with `register` (the tests' toy
game is). See ``docs/architecture.md`` « Adding a game ».
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol

from companion.games.chance import ChanceSpec
from companion.games.errors import ReplayError
from companion.games.hand_reports import SealedShare
from companion.games.sealed import SealedChoice

__all__ = [
    "DEFAULT",
    "KNOWN",
    "Action",
    "Game",
    "Pending",
    "for_header",
    "get",
    "names",
    "register",
]

KNOWN: Mapping[str, str] = {
    "village": "companion.village.game",
    "crecy": "companion.crecy.game",
    "colonia": "companion.colonia.game",
}
"""The games shipped: record ``game`` name → the module whose ``GAME`` plays it (imported
when first asked for)."""

DEFAULT = "village"
"""The game a new table starts when none is named."""

_registered: dict[str, Game] = {}


class Action(Protocol):
    """An action of a game: its record ``type`` and its record form."""

    @property
    def type(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


class Pending(Protocol):
    """What a game waits for: ``kind`` (a step's name), who decides (None: a draw or the
    end) and the step's details."""

    @property
    def kind(self) -> str: ...

    @property
    def detail(self) -> dict[str, Any]: ...

    def to_json(self) -> dict[str, Any]: ...


class Game(Protocol):
    """One game's rules and words, as the table uses them. States and actions are the
    game's own values (the table only passes them back); records are JSON objects.

    Refusals are `companion.games.errors`: `MalformedAction`, `IllegalAction`,
    `AmbiguousAction` (all `RulesError`) and `ReplayError` for a record that does not
    replay."""

    @property
    def name(self) -> str:
        """The record header's ``game`` for this game."""
        ...

    # -- records -------------------------------------------------------------------------
    def make_header(
        self, players: list[str], first_player: str | None = None, **options: Any
    ) -> dict[str, Any]:
        """A record header for a new game; ``options`` are the game's own (Village: board,
        house rules, modules…). Raises ValueError for a bad option."""
        ...

    def start(self, header: dict[str, Any]) -> Any:
        """The state a header describes. Raises ReplayError."""
        ...

    def replay(self, header: dict[str, Any], actions: list[dict[str, Any]]) -> Any:
        """The state after a record's actions. Raises ReplayError naming the action."""
        ...

    def parse_action(self, obj: Any) -> Action:
        """An action from its record form. Raises MalformedAction."""
        ...

    def render(
        self, header: dict[str, Any], actions: list[dict[str, Any]], narration: bool
    ) -> str:
        """The record as readable text (``companion replay``). Raises ReplayError or
        RulesError."""
        ...

    # -- rules ---------------------------------------------------------------------------
    def apply(self, st: Any, action: Any) -> Any:
        """The state after ``action`` (an action or its record form). Raises RulesError."""
        ...

    def apply_unchecked(self, st: Any, action: Any) -> Any:
        """The state after an action known legal."""
        ...

    def resolve(self, st: Any, partial: dict[str, Any]) -> Action:
        """The one legal action matching a partial record. Raises IllegalAction,
        AmbiguousAction."""
        ...

    def legal_actions(self, st: Any) -> list[Any]:
        """The legal decisions now ([] at a chance point or at the end)."""
        ...

    def anytime_actions(self, st: Any, player: str) -> list[Any]:
        """What ``player`` may do at any moment besides the pending decision."""
        ...

    def is_anytime(self, obj: dict[str, Any]) -> bool:
        """Whether an action's record form is of a kind allowed at any moment."""
        ...

    def hand_reports(self, st: Any, player: str) -> list[Any]:
        """The chance outcomes ``player`` may report alone now (a tile only they saw)."""
        ...

    def sealed_share(self, st: Any, player: str, record: dict[str, Any]) -> SealedShare | None:
        """``player``'s hand report ``record`` as a share to keep sealed until the others'
        of the same draw are in (`companion.games.hand_reports`); None: store it at once."""
        ...

    def sealed_deal(self, st: Any, draw: str, shares: dict[str, str]) -> dict[str, Any]:
        """The record of draw ``draw`` dealing each player the value of their share."""
        ...

    def pending(self, st: Any) -> Pending:
        """The decision or draw the game waits for."""
        ...

    def is_chance(self, st: Any) -> bool:
        """Whether the game waits for a draw."""
        ...

    def chance_spec(self, st: Any) -> ChanceSpec | None:
        """The pending draw (None: the game waits for a person or is over)."""
        ...

    def is_over(self, st: Any) -> bool:
        """Whether the game has ended."""
        ...

    def sealed_choice(self, st: Any) -> SealedChoice | None:
        """The secret choice several players answer at once now (None: none); the table
        keeps the answers sealed and applies the choice's reveal action when all are in
        (`companion.games.sealed`)."""
        ...

    # -- what each viewer sees -----------------------------------------------------------
    def view(self, st: Any, viewer: str) -> dict[str, Any]:
        """The state as ``viewer`` (``"table"`` or a player) may see it, with ``pending``."""
        ...

    def summary(self, st: Any) -> dict[str, Any]:
        """Everything, hidden information included (records, tests, the owner's tools)."""
        ...

    def picture(self, st: Any) -> Any | None:
        """Where the pieces the sensors read stand (None: the game has no such board)."""
        ...

    def public_action(self, obj: dict[str, Any]) -> dict[str, Any]:
        """An action's record form as every player may see it."""
        ...

    def public_option(self, obj: dict[str, Any]) -> dict[str, Any]:
        """A legal option as the table's pages may list it (private pieces masked)."""
        ...

    def from_public(self, st: Any, obj: dict[str, Any]) -> dict[str, Any]:
        """The record action a public option stands for (``obj`` itself if not masked).
        Raises IllegalAction."""
        ...

    def choice(self, st: Any, action: Any) -> dict[str, Any]:
        """How a person picks a legal action and what it costs, for the pages."""
        ...

    # -- words ---------------------------------------------------------------------------
    def narrate(self, before: Any, action: Any, after: Any) -> list[str]:
        """What an action did, for the table (nothing private), in sentences."""
        ...

    def headline(self, before: Any, action: Any, after: Any) -> str:
        """An action in one sentence (the first of `narrate`)."""
        ...

    def now_text(self, st: Any) -> str:
        """What the game waits for, in words."""
        ...

    def player_name(self, player: str) -> str:
        """A player as the narration names them."""
        ...


def register(game: Game) -> None:
    """Make ``game`` playable under ``game.name`` (a test's game, a game not shipped).
    Raises ValueError when another game has that name."""
    known = _registered.get(game.name)
    if known is not None and known is not game:
        raise ValueError(f"a game called {game.name!r} is already registered")
    _registered[game.name] = game


def names() -> list[str]:
    """The games a table can hold (shipped and registered), sorted."""
    return sorted(set(KNOWN) | set(_registered))


def get(name: object) -> Game:
    """The game called ``name``. Raises ReplayError for a game this table does not know."""
    if not isinstance(name, str) or (name not in _registered and name not in KNOWN):
        raise ReplayError(f"not a record of a game this table knows: game = {name!r}")
    found = _registered.get(name)
    if found is not None:
        return found
    game: Game = importlib.import_module(KNOWN[name]).GAME
    _registered[name] = game
    return game


def for_header(header: Mapping[str, Any]) -> Game:
    """The game a record header names in its ``game`` field. Raises ReplayError."""
    return get(header.get("game"))
