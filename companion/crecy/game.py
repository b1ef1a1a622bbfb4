"""*Le Testament du Duc de Crecy* behind the table's game protocol (`companion.games.Game`),
by the record header's ``game`` (``"crecy"``)."""

from __future__ import annotations

from typing import Any

from companion.games import Game
from companion.games.cards import ANSWER
from companion.games.chance import ChanceSpec
from companion.games.errors import IllegalAction, ReplayError
from companion.games.hand_reports import SealedShare
from companion.games.sealed import SealedChoice
from companion.games.simple import Move

from . import box, engine, learned, mentor, offers, phone, record, views, words
from .state import State


class CrecyGame:
    """The whole game (2–4 players, or the standard solo variant) as one `companion.games.Game`."""

    name = "crecy"
    card_types = box.TYPES
    """The printed cards this game learns at the table (`companion.games.cards`)."""

    def make_header(self, players: list[str], first_player: str | None = None,
                    **options: Any) -> dict[str, Any]:
        """`record.make_header`: ``families``, ``cards``, ``house``, ``solo``. Raises
        ValueError (an option it does not take included)."""
        unknown = sorted(set(options) - {"families", "cards", "house", "solo"})
        if unknown:
            raise ValueError(f"crecy takes the options families, cards, house and solo, not "
                             f"{', '.join(map(repr, unknown))}")
        return record.make_header(players, first_player, **options)

    def start(self, header: dict[str, Any]) -> State:
        return record.start(header)

    def replay(self, header: dict[str, Any], actions: list[dict[str, Any]]) -> State:
        return record.replay(header, actions)

    def parse_action(self, obj: Any) -> Move:
        return Move.of(engine.parse(obj))

    def render(self, header: dict[str, Any], actions: list[dict[str, Any]],
               narration: bool) -> str:
        st = self.start(header)
        out = [f"crecy, players {' '.join(header['players'])}"]
        for i, obj in enumerate(actions, start=1):
            try:
                after = engine.apply(st, obj)
            except Exception as exc:
                raise ReplayError(f"action {i} refused: {exc}", i - 1) from exc
            out.append(f"{i:4d}. {words.headline(st, engine.parse(obj), after)}")
            if narration:
                out.append(f"      {self.now_text(after)}")
            st = after
        return "\n".join(out) + "\n"

    def apply(self, st: State, action: Any) -> State:
        return engine.apply(st, action.to_json() if isinstance(action, Move) else action)

    def apply_unchecked(self, st: State, action: Move) -> State:
        return engine.apply(st, action.to_json())

    def resolve(self, st: State, partial: dict[str, Any]) -> Move:
        from companion.games.errors import AmbiguousAction

        found = [a for a in engine.legal_options(st)
                 if all(a.get(k) == v for k, v in partial.items())]
        if not found:
            raise IllegalAction(f"illegal: {partial!r} — no legal action matches",
                                code="no_match")
        if len(found) > 1:
            raise AmbiguousAction(f"ambiguous: {partial!r} matches {len(found)} actions",
                                  found)
        return Move.of(found[0])

    def legal_actions(self, st: State) -> list[Move]:
        return [Move.of(a) for a in engine.legal_options(st)]

    def anytime_actions(self, st: State, player: str) -> list[Move]:
        return []

    def is_anytime(self, obj: dict[str, Any]) -> bool:
        return obj.get("type") in engine.ANYTIME

    def hand_reports(self, st: State, player: str) -> list[Move]:
        return []

    def sealed_share(self, st: State, player: str, record: dict[str, Any]) -> SealedShare | None:
        return None  # no hand reports (the table names the cards drawn by hand)

    def sealed_deal(self, st: State, draw: str, shares: dict[str, str]) -> dict[str, Any]:
        raise ValueError("Le Testament du Duc de Crecy has no sealed hand reports")

    def sealed_choice(self, st: State) -> SealedChoice | None:
        return None  # no simultaneous secret choice in the seed's rules

    def own_options(self, st: State, player: str) -> list[dict[str, Any]]:
        """`phone.own_options`: what ``player``'s phone offers now."""
        return phone.own_options(st, player)

    def own_unknown(self, st: State, player: str) -> list[str]:
        """`phone.unknown_cards`: the hand cards the box must learn before they are played."""
        return phone.unknown_cards(st, player)

    def own_private(self, st: State, player: str) -> dict[str, Any]:
        """What only ``player``'s phone shows besides the options: the printed values of
        their hand's cards and of their mentor the game knows (``cards``), and what their
        mentor would give now (``mentor``: `mentor.Score` as JSON with the mentor's name;
        ``count`` None while its form is unknown or its main objective is the table's)."""
        p = st.player(player)
        cards = {c: dict(v) for c in p.hand if (v := st.book.values(box.FRIEND.name, c))}
        known = st.book.values(box.MENTOR.name, p.mentor) if p.mentor else None
        count = mentor.score(st.book, p)
        return {"cards": cards, "mentor": {
            "name": p.mentor, "known": known is not None,
            "values": dict(known) if known else None,
            "count": count.to_json() if count else None}}

    def public_learned(self, st: State) -> dict[str, dict[str, dict[str, Any]]]:
        """`learned.public_json`: what this game learned that the table may see now."""
        return learned.public_json(st)

    def kept_cards(self, before: State, after: State) -> list[tuple[str, str, dict[str, Any]]]:
        """`learned.kept`: the learned cards the box keeps after this action."""
        return learned.kept(before, after)

    def owns(self, st: State, player: str, action: dict[str, Any]) -> bool:
        """`phone.owns`: whether ``player`` may send ``action`` from their phone now."""
        return phone.owns(st, player, action)

    def pending(self, st: State) -> engine.Pending:
        return engine.pending(st)

    def is_chance(self, st: State) -> bool:
        return engine.is_chance(st)

    def chance_spec(self, st: State) -> ChanceSpec | None:
        return engine.chance_spec(st)

    def is_over(self, st: State) -> bool:
        return engine.is_over(st)

    def view(self, st: State, viewer: str) -> dict[str, Any]:
        return views.view(st, viewer, engine.pending(st).to_json())

    def summary(self, st: State) -> dict[str, Any]:
        return views.view(st, "table", engine.pending(st).to_json(), everything=True)

    def picture(self, st: State) -> None:
        return None

    def public_action(self, obj: dict[str, Any]) -> dict[str, Any]:
        return views.public_action(obj)

    def public_option(self, obj: dict[str, Any]) -> dict[str, Any]:
        return views.public_option(obj)

    def from_public(self, st: State, obj: dict[str, Any]) -> dict[str, Any]:
        """Raises IllegalAction for a masked option: its cards are picked on the phone."""
        if views.HIDDEN in str(obj.values()):
            raise IllegalAction(f"illegal: {obj!r} — the cards of a hand are chosen on "
                                "their owner's phone", code="masked")
        return obj

    def choice(self, st: State, action: Move) -> dict[str, Any]:
        """`offers.describe`, in the table's words (no card of a hand named)."""
        return offers.describe(st, action.to_json())

    def own_choice(self, st: State, action: dict[str, Any]) -> dict[str, Any]:
        """`offers.describe` for the owner's phone (the cards of their hand named)."""
        return offers.describe(st, action, private=True)

    def narrate(self, before: State, action: Move, after: State) -> list[str]:
        return [self.headline(before, action, after), self.now_text(after)]

    def headline(self, before: State, action: Move, after: State) -> str:
        return words.headline(before, action.to_json(), after)

    def now_text(self, st: State) -> str:
        return words.now_text(st, engine.pending(st).to_json())

    def player_name(self, player: str) -> str:
        return words.name(player)


GAME: Game = CrecyGame()
"""The game the registry (`companion.games.KNOWN`) finds for ``"game": "crecy"``."""

__all__ = ["ANSWER", "GAME", "CrecyGame"]
