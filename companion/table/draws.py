"""Virtual draws: the commitment the service holds at a chance point and the draw made with
it.

At a chance point the service holds a `Commitment` (a random seed) whose SHA-256 digest is
published with the state before anyone can ask for the draw. Posting ``{"type":
"virtual_draw"}`` draws with that seed (`companion.bags.draw_action`, from the game's
`ChanceSpec`) and appends the outcome with source ``"virtual_bag"``; the revealed seed and
the digest are stored in the same event, under the payload key `DRAW_KEY` (``"_draw"``),
which the service strips before the game sees the action and from exported records.
"""

from __future__ import annotations

from typing import Final

from companion import bags
from companion.store import JSONObject
from companion.table.current import CurrentGame, TableBase
from companion.table.disclosure import DRAW_KEY
from companion.table.errors import NoDrawPending, StaleCommitment

VIRTUAL_DRAW: Final = "virtual_draw"
"""The ``type`` of the action that asks the server to draw."""


class DrawCommitments(TableBase):
    """The service's virtual draws."""

    def _draw_offer(self) -> JSONObject | None:
        """The draw on offer now (``{"type": "virtual_draw", "draw", "commitment"}``), None
        when the game waits for a person."""
        current = self._require()
        spec = current.game.chance_spec(current.state)
        if spec is None or self._commitment is None:
            return None
        return {"type": VIRTUAL_DRAW, "draw": spec.kind, "commitment": self._commitment.digest}

    def _offer(self) -> None:
        """Hold a fresh commitment iff the current game waits for a draw."""
        self._commitment = None
        current = self._game
        if current is not None and current.game.is_chance(current.state):
            self._commitment = bags.Commitment.new()

    def _virtual_draw(self, current: CurrentGame, request: JSONObject) -> int:
        """Draw with the commitment on offer, store and announce the outcome; its seq.
        Raises NoDrawPending, StaleCommitment."""
        game = current.game
        spec = game.chance_spec(current.state)
        commitment = self._commitment
        if spec is None or commitment is None:
            kind = game.pending(current.state).kind
            raise NoDrawPending(f"no draw to make: the game waits for {kind}")
        asked = request.get("draw")
        if asked is not None and asked != spec.kind:
            raise StaleCommitment(f"the draw on offer is {spec.kind}, not {asked!r}")
        wanted = request.get("commitment")
        if wanted is not None and wanted != commitment.digest:
            raise StaleCommitment(f"the commitment in force is {commitment.digest}, not {wanted!r}")
        outcome = bags.draw_action(spec, commitment.seed)
        new_state = game.apply(current.state, outcome)
        audit = {"kind": spec.kind, "seed": commitment.seed, "digest": commitment.digest}
        event = self._store.append(current.id, {**outcome, DRAW_KEY: audit}, "virtual_bag")
        told = game.narrate(current.state, game.parse_action(outcome), new_state)
        self._commit(current, event, new_state, told)
        return event.seq
