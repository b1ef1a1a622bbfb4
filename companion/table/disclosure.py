"""What a viewer may see of the game: the one place the service decides it.

Every public output (the live feed's events, ``legal`` and ``state``; ``/api/state``,
``/api/legal``, ``/api/log``, ``/api/draws``) is built through these functions, from the
game's own view of an action (`companion.games.Game.public_action`) and of a state
(``Game.view``):

- an action is published in its public form: a goal deal without the tiles, a treasure
  drawn or loaded without its tile, a sale without the customer;
- a virtual draw's seed decides its whole outcome, so the seed of a *private* draw (an
  outcome whose public form hides something: the goal deals, a treasure) is nobody's until
  the game is over, when nothing it decides is secret any more; its digest (the
  commitment) is public from the start, so every draw stays verifiable by everyone in the
  end. A public draw (the green bag, the black bag, the market) shows its seed at once;
- the legal options are listed with their private pieces masked, options that become
  alike merged
  (`public_options`); the table sends such a form back and the game completes it
  (``Game.from_public``).
"""

from __future__ import annotations

from typing import Any, Final

from companion.games import Game
from companion.store import JSONObject

__all__ = ["DRAW_KEY", "OBSERVED_KEY", "draw_entry", "engine_action", "is_private_draw",
           "public_action", "public_draw", "public_options"]

DRAW_KEY: Final = "_draw"
"""Payload key of a virtual draw's audit (``{"kind", "seed", "digest"}``)."""
OBSERVED_KEY: Final = "_observed"
"""Payload key of a sensor-made action's evidence: the observations that led to it, stored
in the same event (so kept and lost with it) and exported with the game on request."""


def engine_action(payload: JSONObject) -> JSONObject:
    """The action as the engine knows it: the stored payload minus `DRAW_KEY` and
    `OBSERVED_KEY`."""
    if DRAW_KEY not in payload and OBSERVED_KEY not in payload:
        return payload
    return {k: val for k, val in payload.items() if k not in (DRAW_KEY, OBSERVED_KEY)}


def public_action(game: Game, payload: JSONObject) -> JSONObject:
    """The stored action as anyone may see it (the game's public form)."""
    return game.public_action(engine_action(payload))


def is_private_draw(game: Game, payload: JSONObject) -> bool:
    """Whether the outcome stored in ``payload`` hides something from somebody (its public
    form differs from the record), so that its seed must be withheld."""
    action = engine_action(payload)
    return game.public_action(action) != action


def public_draw(game: Game, payload: JSONObject, over: bool) -> dict[str, Any] | None:
    """The draw audit of a stored event as anyone may see it (None: no virtual draw).
    A private draw's seed is left out (``"withheld": true``) until the game is ``over``."""
    audit = payload.get(DRAW_KEY)
    if not isinstance(audit, dict):
        return None
    if over or not is_private_draw(game, payload):
        return dict(audit)
    return {k: val for k, val in audit.items() if k != "seed"} | {"withheld": True}


def draw_entry(game: Game, seq: int, payload: JSONObject, over: bool) -> dict[str, Any]:
    """A virtual draw for checking (``/api/draws``): its audit as `public_draw` shows it, and
    the action: whole once the seed is shown, its public form while it is withheld."""
    audit = public_draw(game, payload, over) or {}
    action = engine_action(payload) if "seed" in audit else public_action(game, payload)
    return {"seq": seq, **audit, "action": action}


def public_options(
    game: Game, actions: list[JSONObject], choices: list[dict[str, Any]]
) -> tuple[list[JSONObject], list[dict[str, Any]]]:
    """The legal actions and their choices as the pages may list them
    (``game.public_option``), in order, each once (two loads that differ only by
    which treasure become one option)."""
    seen: set[str] = set()
    out_actions: list[JSONObject] = []
    out_choices: list[dict[str, Any]] = []
    for i, action in enumerate(actions):
        public = game.public_option(action)
        key = repr(sorted(public.items()))
        if key in seen:
            continue
        seen.add(key)
        out_actions.append(public)
        if i < len(choices):
            out_choices.append(choices[i])
    return out_actions, out_choices
