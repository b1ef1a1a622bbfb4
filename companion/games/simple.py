"""`SimpleGame`: the whole `companion.games.Game` protocol for a small game with turns, no
chance and nothing hidden, written from six methods (see ``docs/architecture.md``
« Adding a game », whose example is the tests' toy game).

A subclass names itself (``name``, the record header's ``game``) and its action types with
their fields (``action_types``: type → field names), and says:

- ``setup(players)``: the state before any action (raise ValueError for bad players);
- ``to_move(st)``: the player who decides now, None once the game is over;
- ``moves(st)``: the legal actions, as record forms (dicts with ``type`` and ``player``);
- ``play(st, action)``: the state after a legal action (never changes ``st``);
- ``tell(before, action, after)``: what the action did, in one sentence;
- ``show(st)``: the state as everyone sees it (JSON).

Everything else (header, replay, refusals, partial actions, views, narration, the text of a
record) follows from those.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from companion.games.chance import ChanceSpec
from companion.games.errors import (
    AmbiguousAction,
    IllegalAction,
    MalformedAction,
    ReplayError,
    RulesError,
)
from companion.games.hand_reports import SealedShare
from companion.games.sealed import SealedChoice

RECORD_VERSION = 1


@dataclass(frozen=True, slots=True)
class Move:
    """An action of a simple game: its record form, compared by value."""

    record: tuple[tuple[str, Any], ...]

    @classmethod
    def of(cls, record: dict[str, Any]) -> Move:
        return cls(tuple(sorted(record.items())))

    @property
    def type(self) -> str:
        return str(dict(self.record)["type"])

    def to_json(self) -> dict[str, Any]:
        return dict(self.record)


@dataclass(frozen=True, slots=True)
class Turn:
    """What a simple game waits for: a player's ``turn``, or ``over``."""

    kind: str
    player: str | None
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, **self.detail}


class SimpleGame:
    """A turn-based game without chance or hidden information (subclass it)."""

    name: ClassVar[str] = ""
    action_types: ClassVar[dict[str, tuple[str, ...]]] = {}

    # -- what a subclass says ------------------------------------------------------------
    def setup(self, players: list[str]) -> Any:
        raise NotImplementedError

    def to_move(self, st: Any) -> str | None:
        raise NotImplementedError

    def moves(self, st: Any) -> list[dict[str, Any]]:
        raise NotImplementedError

    def play(self, st: Any, action: dict[str, Any]) -> Any:
        raise NotImplementedError

    def tell(self, before: Any, action: dict[str, Any], after: Any) -> str:
        raise NotImplementedError

    def show(self, st: Any) -> dict[str, Any]:
        raise NotImplementedError

    def sealed(self, st: Any) -> SealedChoice | None:
        """The secret choice the players answer at once now (None: none, the default); its
        reveal type must be among ``action_types`` with the field ``answers``, and ``play``
        gets the reveal action (`companion.games.sealed`)."""
        return None

    # -- records -------------------------------------------------------------------------
    def make_header(
        self, players: list[str], first_player: str | None = None, **options: Any
    ) -> dict[str, Any]:
        """Raises ValueError for any option (a simple game has none)."""
        if options:
            raise ValueError(f"{self.name} takes no options, got {sorted(options)}")
        return {
            "game": self.name,
            "version": RECORD_VERSION,
            "players": list(players),
            "first_player": first_player or players[0],
        }

    def start(self, header: dict[str, Any]) -> Any:
        if header.get("game") != self.name:
            raise ReplayError(f"not a {self.name} record: game = {header.get('game')!r}")
        try:
            players = list(header["players"])
            first = players.index(header.get("first_player") or players[0])
            return self.setup(players[first:] + players[:first])
        except (KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"bad header: {exc}") from exc

    def replay(self, header: dict[str, Any], actions: list[dict[str, Any]]) -> Any:
        st = self.start(header)
        for i, obj in enumerate(actions):
            try:
                st = self.apply(st, obj)
            except RulesError as exc:
                raise ReplayError(f"action {i + 1} refused: {exc}", i, exc) from exc
        return st

    def parse_action(self, obj: Any) -> Move:
        if not isinstance(obj, dict):
            raise MalformedAction(f"an action is a JSON object, got {obj!r}")
        kind = obj.get("type")
        fields = self.action_types.get(kind) if isinstance(kind, str) else None
        if fields is None:
            known = sorted(self.action_types)
            raise MalformedAction(f"unknown action type {kind!r}; known: {known}")
        record = {k: v for k, v in obj.items() if not k.startswith("_")}
        missing = sorted(set(fields) - set(record))
        extra = sorted(set(record) - set(fields) - {"type"})
        if missing or extra:
            raise MalformedAction(f"{kind}: missing field(s) {missing}, unexpected {extra}")
        return Move.of(record)

    def render(
        self, header: dict[str, Any], actions: list[dict[str, Any]], narration: bool
    ) -> str:
        st = self.start(header)
        out = [f"{self.name}, players {' '.join(header['players'])}"]
        for i, obj in enumerate(actions, start=1):
            after = self.apply(st, obj)
            out.append(f"{i:4d}. {self.tell(st, self.parse_action(obj).to_json(), after)}")
            st = after
        return "\n".join(out) + "\n"

    # -- rules ---------------------------------------------------------------------------
    def apply(self, st: Any, action: Any) -> Any:
        move = action if isinstance(action, Move) else self.parse_action(action)
        choice = self.sealed(st)
        if choice is not None and move.type == choice.reveal:
            choice.check(move.to_json())
            return self.play(st, move.to_json())
        if move.to_json() not in self.moves(st):
            raise IllegalAction(
                f"illegal: {move.to_json()!r} — not one of the moves open now. "
                f"{self.now_text(st)}",
                code="not_legal",
            )
        return self.play(st, move.to_json())

    def apply_unchecked(self, st: Any, action: Move) -> Any:
        return self.play(st, action.to_json())

    def resolve(self, st: Any, partial: dict[str, Any]) -> Move:
        found = [m for m in self.moves(st) if all(m.get(k) == v for k, v in partial.items())]
        if not found:
            raise IllegalAction(f"illegal: {partial!r} — no legal action matches", code="no_match")
        if len(found) > 1:
            raise AmbiguousAction(f"ambiguous: {partial!r} matches {len(found)} actions", found)
        return Move.of(found[0])

    def legal_actions(self, st: Any) -> list[Move]:
        return [Move.of(m) for m in self.moves(st)]

    def anytime_actions(self, st: Any, player: str) -> list[Move]:
        return []

    def is_anytime(self, obj: dict[str, Any]) -> bool:
        return False

    def hand_reports(self, st: Any, player: str) -> list[Move]:
        return []

    def sealed_share(self, st: Any, player: str, record: dict[str, Any]) -> SealedShare | None:
        return None

    def sealed_deal(self, st: Any, draw: str, shares: dict[str, str]) -> dict[str, Any]:
        raise ValueError(f"{self.name} has no sealed hand reports")

    def pending(self, st: Any) -> Turn:
        choice = self.sealed(st)
        if choice is not None:
            return Turn("sealed", None, {"choice": choice.key, "players": list(choice.players)})
        player = self.to_move(st)
        return Turn("over", None) if player is None else Turn("turn", player)

    def is_chance(self, st: Any) -> bool:
        return False

    def chance_spec(self, st: Any) -> ChanceSpec | None:
        return None

    def is_over(self, st: Any) -> bool:
        return self.to_move(st) is None and self.sealed(st) is None

    def sealed_choice(self, st: Any) -> SealedChoice | None:
        return self.sealed(st)

    # -- what each viewer sees (everything is public) ------------------------------------
    def view(self, st: Any, viewer: str) -> dict[str, Any]:
        return {**self.show(st), "pending": self.pending(st).to_json()}

    def summary(self, st: Any) -> dict[str, Any]:
        return self.view(st, "table")

    def picture(self, st: Any) -> None:
        return None

    def public_action(self, obj: dict[str, Any]) -> dict[str, Any]:
        return obj

    def public_option(self, obj: dict[str, Any]) -> dict[str, Any]:
        return obj

    def from_public(self, st: Any, obj: dict[str, Any]) -> dict[str, Any]:
        return obj

    def choice(self, st: Any, action: Move) -> dict[str, Any]:
        return {"steps": [self.tell(st, action.to_json(), self.apply_unchecked(st, action))]}

    # -- words ---------------------------------------------------------------------------
    def narrate(self, before: Any, action: Move, after: Any) -> list[str]:
        return [self.headline(before, action, after), self.now_text(after)]

    def headline(self, before: Any, action: Move, after: Any) -> str:
        return self.tell(before, action.to_json(), after)

    def now_text(self, st: Any) -> str:
        choice = self.sealed(st)
        if choice is not None:
            names = " and ".join(self.player_name(p) for p in choice.players)
            return f"{names} answer at once, in secret: {choice.question}"
        player = self.to_move(st)
        return "The game is over." if player is None else f"Now {self.player_name(player)}."

    def player_name(self, player: str) -> str:
        return player.capitalize()


if TYPE_CHECKING:  # a simple game is a whole Game (checked by mypy)
    from companion.games import Game

    _: Game = SimpleGame()
