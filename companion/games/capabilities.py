"""What some games can do beyond `companion.games.Game`, each a named protocol.

The table asks ``isinstance(game, LearnsCards)`` (a runtime check of the methods' names,
no more) rather than probing attributes one by one, so what a game may offer is written
down in one place and checked by mypy where it is used:

- `LearnsCards`: the game's printed cards are learned at the table through forms
  (``card_types``, `companion.games.cards`); Crecy and Colonia.
- `KeepsSeenCards`: a learned card stays secret until the table has seen it (a hand
  card's or a mentor's form); the box keeps it only then. Crecy.
- `PhoneSteps`: some steps are sent from a player's own phone with their token (a draw
  only they saw, an option naming their hand). Crecy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from companion.games.cards import CardType

__all__ = ["KeepsSeenCards", "LearnsCards", "PhoneSteps", "card_types"]


@runtime_checkable
class LearnsCards(Protocol):
    """A game whose printed cards the box learns at the table."""

    @property
    def card_types(self) -> Mapping[str, CardType]:
        """Each card type's name (``"crecy.friend"``) → its form."""
        ...


@runtime_checkable
class KeepsSeenCards(LearnsCards, Protocol):
    """A game whose learned cards are secret until seen: the box keeps each only then."""

    def kept_cards(self, before: Any, after: Any) -> list[tuple[str, str, dict[str, Any]]]:
        """The (type, card, values) the table has seen after the action from ``before`` to
        ``after``: those the box keeps."""
        ...

    def public_learned(self, st: Any) -> dict[str, dict[str, dict[str, Any]]]:
        """What this game learned that every viewer may see now, by type and card."""
        ...


@runtime_checkable
class PhoneSteps(Protocol):
    """A game some of whose steps are sent from a player's own phone."""

    def owns(self, st: Any, player: str, action: dict[str, Any]) -> bool:
        """Whether ``player`` may send ``action`` from their phone now."""
        ...

    def own_options(self, st: Any, player: str) -> list[dict[str, Any]]:
        """What ``player``'s phone offers now."""
        ...

    def own_choice(self, st: Any, action: dict[str, Any]) -> dict[str, Any]:
        """How the owner picks ``action`` on their phone (their hand named)."""
        ...

    def own_unknown(self, st: Any, player: str) -> list[str]:
        """The cards of ``player``'s hand whose printed values the box must learn first."""
        ...

    def own_private(self, st: Any, player: str) -> dict[str, Any]:
        """What only ``player``'s phone shows besides the options."""
        ...


def card_types(game: object) -> Mapping[str, CardType]:
    """The card forms ``game`` learns at the table ({} for a game without cards)."""
    return game.card_types if isinstance(game, LearnsCards) else {}
