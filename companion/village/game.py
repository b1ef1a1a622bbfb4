"""Village behind the table's game protocol (`companion.games.Game`): what the service,
the bags, the pages and the command line call, by the record header's ``game``
(``"village"``)."""

from __future__ import annotations

from typing import Any

from companion.games import Game
from companion.games.chance import ChanceSpec
from companion.games.hand_reports import SealedShare
from companion.games.sealed import SealedChoice

from . import narrate, options
from .actions import Action
from .chance import chance_spec
from .engine import (
    anytime_actions,
    apply,
    apply_unchecked,
    hand_reports,
    is_chance,
    legal_actions,
    pending,
    resolve,
)
from .modules.registry import forms, from_public, parse_action, public_action, public_option
from .pending import Pending
from .picture import Picture
from .picture import picture as board_picture
from .record import make_header, replay, start
from .state import GameState
from .summary import summary as full_summary
from .summary import view as state_view
from .vocabulary import Color


class VillageGame:
    """Village (Descendance) and its rule modules, as one `companion.games.Game`."""

    name = "village"

    def make_header(
        self, players: list[str], first_player: str | None = None, **options: Any
    ) -> dict[str, Any]:
        """`companion.village.make_header`: ``board``, ``house_rules``, ``modules``,
        ``module_values``, ``goal_claims``. Raises ValueError."""
        return make_header(players, first_player, **options)

    def start(self, header: dict[str, Any]) -> GameState:
        return start(header)

    def replay(self, header: dict[str, Any], actions: list[dict[str, Any]]) -> GameState:
        return replay(header, actions)

    def parse_action(self, obj: Any) -> Action:
        return parse_action(obj)

    def render(
        self, header: dict[str, Any], actions: list[dict[str, Any]], narration: bool
    ) -> str:
        from companion.village.transcript import render  # Village's text, beside the golden files

        return render(header, actions, narration=narration)

    def apply(self, st: GameState, action: Any) -> GameState:
        return apply(st, action)

    def apply_unchecked(self, st: GameState, action: Action) -> GameState:
        return apply_unchecked(st, action)

    def resolve(self, st: GameState, partial: dict[str, Any]) -> Action:
        return resolve(st, partial)

    def legal_actions(self, st: GameState) -> list[Action]:
        return legal_actions(st)

    def anytime_actions(self, st: GameState, player: str) -> list[Action]:
        return anytime_actions(st, Color(player))

    def is_anytime(self, obj: dict[str, Any]) -> bool:
        kind = forms().types.get(str(obj.get("type")))
        return kind is not None and bool(getattr(kind, "anytime", False))

    def hand_reports(self, st: GameState, player: str) -> list[Action]:
        return hand_reports(st, Color(player))

    def sealed_share(
        self, st: GameState, player: str, record: dict[str, Any]
    ) -> SealedShare | None:
        shares = (share(st, player, record) for share in st.rules.sealed_shares)
        return next((s for s in shares if s is not None), None)

    def sealed_deal(self, st: GameState, draw: str, shares: dict[str, str]) -> dict[str, Any]:
        for deal in st.rules.sealed_deals:
            record = deal(draw, shares)
            if record is not None:
                return record
        raise ValueError(f"no rule module deals the draw {draw!r}")

    def pending(self, st: GameState) -> Pending:
        return pending(st)

    def is_chance(self, st: GameState) -> bool:
        return is_chance(st)

    def chance_spec(self, st: GameState) -> ChanceSpec | None:
        return chance_spec(st)

    def is_over(self, st: GameState) -> bool:
        return st.phase == "over"

    def sealed_choice(self, st: GameState) -> SealedChoice | None:
        return None  # Village has no secret simultaneous choice

    def view(self, st: GameState, viewer: str) -> dict[str, Any]:
        return state_view(st, viewer)

    def summary(self, st: GameState) -> dict[str, Any]:
        return full_summary(st)

    def picture(self, st: GameState) -> Picture:
        return board_picture(st)

    def public_action(self, obj: dict[str, Any]) -> dict[str, Any]:
        return public_action(obj)

    def public_option(self, obj: dict[str, Any]) -> dict[str, Any]:
        return public_option(obj)

    def from_public(self, st: GameState, obj: dict[str, Any]) -> dict[str, Any]:
        return from_public(st, obj)

    def choice(self, st: GameState, action: Action) -> dict[str, Any]:
        return options.choice(st, action)

    def narrate(self, before: GameState, action: Action, after: GameState) -> list[str]:
        return narrate.narrate(before, action, after)

    def headline(self, before: GameState, action: Action, after: GameState) -> str:
        return narrate.headline(before, action, after)

    def now_text(self, st: GameState) -> str:
        return narrate.now_text(st)

    def player_name(self, player: str) -> str:
        return narrate.colour_name(player)


GAME: Game = VillageGame()
"""The game the registry (`companion.games.KNOWN`) finds for ``"game": "village"``."""
