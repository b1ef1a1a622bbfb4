"""The rules engine's public face: ``apply``, ``legal_actions``, ``pending``.

``apply(state, action)`` returns a new state or raises: ``MalformedAction`` (not an action),
``IllegalAction`` (the rules forbid it now; the message names the rule and the input) or,
through :func:`resolve`, ``AmbiguousAction``. It never changes the state it is given, and
holds no I/O, clock or randomness: chance enters as actions carrying their outcome.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import deaths
from .actions import Action, Buyout, Decision
from .errors import AmbiguousAction, IllegalAction
from .legal import legal_actions
from .narrate import now_text
from .pending import Pending, is_chance, pending
from .refusals import explain
from .state import GameState
from .vocabulary import Color, is_member, member_color


def is_legal(st: GameState, action: Action) -> bool:
    try:
        _check(st, action)
    except IllegalAction:
        return False
    return True


def apply(st: GameState, action: Action | dict[str, Any]) -> GameState:
    """The state after ``action`` (an action, or its record form in the game's
    ``rules.forms``); raises MalformedAction or IllegalAction, state untouched."""
    if not isinstance(action, Action):
        action = st.rules.forms.parse(action)
    _check(st, action)
    return apply_unchecked(st, action)


def apply_unchecked(st: GameState, action: Action) -> GameState:
    """Apply an action already known legal (e.g. taken from ``legal_actions``)."""
    new = st.derive()  # players shared until changed (``GameState.own``)
    new.rules.handlers[type(action)](new, action)
    for hook in new.rules.after_apply:
        hook(new)
    return new


def anytime_actions(st: GameState, color: Color) -> list[Action]:
    """What ``color`` may do at any moment besides the pending decision (a module's: claim
    a life goal, cash a treasure). Once the game is over, only what the rules allow even
    then (an action type with ``after_the_end``: a life goal met by the last move, seed 003
    LA2 « même en fin de partie »)."""
    found = [a for options in st.rules.anytime for a in options(st, color)]
    if st.phase == "over":
        return [a for a in found if getattr(a, "after_the_end", False)]
    return found


def hand_reports(st: GameState, color: Color) -> list[Action]:
    """The chance outcomes ``color`` may report alone at this chance step, when the table
    draws by hand a tile only its drawer sees (a module's: each player's life goal). Lists
    every tile the player could have drawn, not only those still free, so the list tells
    nothing of the others' tiles; ``apply`` still refuses one already taken. Empty when the
    step is not such a draw or ``color`` has reported their share."""
    if st.phase == "over":
        return []
    return [a for options in st.rules.hand_reports for a in options(st, color)]


def resolve(st: GameState, partial: dict[str, Any]) -> Action:
    """The one legal action matching every field given in ``partial`` (sensors and quick
    taps may leave out what only one option fits). Raises IllegalAction if none matches and
    AmbiguousAction, listing the options, if several do."""
    matches = [
        a for a in legal_actions(st) if all(a.to_json().get(k) == v for k, v in partial.items())
    ]
    if not matches:
        raise IllegalAction(f"illegal: {partial!r} — no legal action matches", code="no_match")
    if len(matches) > 1:
        options = [a.to_json() for a in matches]
        raise AmbiguousAction(f"ambiguous: {partial!r} matches {len(matches)} actions", options)
    return matches[0]


# --- checking ---------------------------------------------------------------------------


def _check(st: GameState, action: Action) -> None:
    if type(action) not in st.rules.handlers:
        raise IllegalAction(
            f"illegal: {action.to_json()!r} — {action.type!r} belongs to a module this game "
            f"does not use (modules: {', '.join(st.rules.modules[1:]) or 'the base game only'})",
            code="not_in_this_game",
        )
    if action.chance:
        st.rules.chance_checks[type(action)](st, action)
        return
    if getattr(action, "anytime", False):
        assert isinstance(action, Decision)
        if action not in anytime_actions(st, action.player):
            code, reason = explain(st, action)
            raise IllegalAction(f"illegal: {action.to_json()!r} — {reason}", code=code, rule=reason)
        return
    if is_chance(st) or st.phase == "over":
        raise IllegalAction(
            f"illegal: {action.to_json()!r} — the game waits for a draw or is over, not for "
            f"a decision. {now_text(st) or 'The game is over.'}",
            code="not_a_decision_point",
        )
    assert isinstance(action, Decision)
    expected = pending(st).player
    if action.player != expected:
        raise IllegalAction(
            f"illegal: {action.to_json()!r} — it is {expected}'s decision, not {action.player}'s",
            code="not_your_turn",
        )
    canon = _canonical(st, action)
    if canon not in legal_actions(st):
        code, reason = explain(st, action)
        raise IllegalAction(f"illegal: {action.to_json()!r} — {reason}", code=code, rule=reason)


def _canonical(st: GameState, action: Action) -> Action:
    """Rewrite member ids to their group representative (see ``legal``)."""
    own = st.rules.canonical.get(type(action))
    if own is not None:
        return own(st, action)
    member = getattr(action, "member", None)
    if isinstance(member, str) and is_member(member) and isinstance(action, Decision):
        if member_color(member) == action.player:
            return replace(action, member=deaths.canonical_member(st, member))  # type: ignore[call-arg]
        return action
    if isinstance(action, Buyout) and all(member_color(m) == action.player for m in action.members):
        return replace(action, members=deaths.canonical_members(st, action.members))
    return action


__all__ = [
    "Pending",
    "anytime_actions",
    "apply",
    "apply_unchecked",
    "hand_reports",
    "is_chance",
    "is_legal",
    "legal_actions",
    "pending",
    "resolve",
]
