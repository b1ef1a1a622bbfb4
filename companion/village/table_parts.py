"""A rule module's part of the whole table (``moves.table``) and its words (``move_words``).

The base game's places are known to ``moves`` and ``move_words`` themselves; a module that
puts pieces of its own on the table (Le Port's ships and island stacks, the life-goal
tiles) says so through one ``TableParts`` in its ``Module`` table, so the narration of the
moves never asks which expansion is on. Every field but ``pieces`` is optional.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .actions import Action
    from .moves import Move
    from .state import GameState

Put = Callable[[str, str, int], None]
"""``put(place, piece, n)``: ``n`` pieces ``piece`` lie at ``place`` (nothing when n ≤ 0)."""
Pieces = Callable[["GameState", Put], None]
Supply = Callable[[str], "str | None"]  # a piece → the unlimited supply it comes from
Told = Callable[["GameState", "Action", "Move"], bool]  # the headline says this move
PieceWords = Callable[["GameState", "Move"], "str | None"]  # None: not this module's piece
PlaceWords = Callable[["GameState | None", str], str]  # a place's detail → its words
Sentence = Callable[["GameState", "GameState", str, str, "list[Move]"], str]

POOL = "pool:"
"""Prefix of a module's supply that never runs short (``pool:goal_tiles``): ``moves.table``
leaves such places out, as it does the bank and the general supply."""


def _no_supply(piece: str) -> str | None:
    return None


def _no_words(st: GameState, m: Move) -> str | None:
    return None


@dataclass(frozen=True, slots=True)
class TableParts:
    """``pieces`` puts the module's pieces on the table; ``supply`` names the pool a piece
    of the module comes from (a ``POOL`` place); ``told`` says, per action type, whether
    its headline already tells a move; ``piece_words`` names a piece of the module;
    ``place_words`` names a place, by the place's kind (the text before its first ``:``);
    ``sentences`` tells a group of moves to one place whole, by the destination's kind;
    ``returns`` are places pieces are handed back to (``Red hands … back to the box``);
    ``owned`` are place kinds whose detail is a colour (``hold:red`` is Red's)."""

    pieces: Pieces
    supply: Supply = _no_supply
    told: Mapping[type[Action], Told] = field(default_factory=dict)
    piece_words: PieceWords = _no_words
    place_words: Mapping[str, PlaceWords] = field(default_factory=dict)
    sentences: Mapping[str, Sentence] = field(default_factory=dict)
    returns: frozenset[str] = frozenset()
    owned: frozenset[str] = frozenset()


__all__ = ["POOL", "Pieces", "PlaceWords", "Put", "TableParts", "Told"]
