"""Colonia behind the table's game protocol (`companion.games.Game`), record name
``colonia``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games import Game
from companion.games.chance import ChanceSpec
from companion.games.errors import AmbiguousAction, IllegalAction
from companion.games.hand_reports import SealedShare
from companion.games.sealed import SealedChoice

from . import cards, engine, hand_draw, legal, views, words
from .actions import Act, parse
from .decrees import EACH_DRAWS
from .record import make_header, replay, start
from .state import State
from .vocabulary import MATERIALS


@dataclass(frozen=True, slots=True)
class Pending:
    """What Colonia waits for: ``kind`` (the step), who decides, the step's details."""

    kind: str
    player: str | None
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, **self.detail}


def _die_outcome(spec: ChanceSpec, drawn: list[str]) -> dict[str, object]:
    return {"type": "roll", "face": int(drawn[0])}


def _good_outcome(spec: ChanceSpec, drawn: list[str]) -> dict[str, object]:
    return {"type": "good_roll", "face": int(drawn[0])}


DECKS = {"week": "week", "decree": "decree", "ship": "ship", "relic": "relic",
         "extra_relic": "relic"}
"""The steps that wait for a card turned up, and from which deck."""


def _deck_outcome(spec: ChanceSpec, drawn: list[str]) -> dict[str, object]:
    return {"type": "reveal", "deck": spec.kind.removesuffix(" deck"), "card": drawn[0]}


def _tie_outcome(spec: ChanceSpec, drawn: list[str]) -> dict[str, object]:
    return {"type": "tiebreak", "order": list(drawn)}


class ColoniaGame:
    """Colonia (Queen Games 2009) as one `companion.games.Game`."""

    name = "colonia"
    card_types = cards.TYPES
    """The cards the box learns (`companion.games.cards`): the table keeps each answer for
    the next games, and a new game's header gets what the box has learned."""

    def make_header(self, players: list[str], first_player: str | None = None,
                    **options: Any) -> dict[str, Any]:
        """Options: ``cards`` (the box's learned values), ``house_rules``. Raises
        ValueError."""
        unknown = sorted(set(options) - {"cards", "house_rules"})
        if unknown:
            raise ValueError(
                f"colonia takes the options 'cards' and 'house_rules', got {unknown}")
        return make_header(players, first_player, options.get("cards"),
                           options.get("house_rules"))

    def start(self, header: dict[str, Any]) -> State:
        return start(header)

    def replay(self, header: dict[str, Any], actions: list[dict[str, Any]]) -> State:
        return replay(header, actions)

    def parse_action(self, obj: Any) -> Act:
        return parse(obj)

    def render(self, header: dict[str, Any], actions: list[dict[str, Any]],
               narration: bool) -> str:
        st = start(header)
        out = [f"colonia, players {' '.join(header['players'])}"]
        for i, obj in enumerate(actions, start=1):
            after = engine.apply(st, obj)
            out.append(f"{i:4d}. {words.tell(st, parse(obj), after)}")
            if narration:
                out += [f"      {line}" for line in words.aftermath(st, after)]
                out.append(f"      {words.now_text(after)}")
            st = after
        return "\n".join(out) + "\n"

    def apply(self, st: State, action: Any) -> State:
        return engine.apply(st, action)

    def apply_unchecked(self, st: State, action: Any) -> State:
        return engine.apply(st, action)

    def resolve(self, st: State, partial: dict[str, Any]) -> Act:
        found = [m for m in legal.moves(st) if all(m.get(k) == v for k, v in partial.items())]
        if not found:
            raise IllegalAction(f"illegal: {partial!r} — no legal action matches. "
                                f"{words.now_text(st)}", code="no_match")
        if len(found) > 1:
            raise AmbiguousAction(f"ambiguous: {partial!r} matches {len(found)} actions", found)
        return Act.of(found[0])

    def legal_actions(self, st: State) -> list[Act]:
        return [Act.of(m) for m in legal.moves(st)]

    def anytime_actions(self, st: State, player: str) -> list[Act]:
        return []

    def is_anytime(self, obj: dict[str, Any]) -> bool:
        return False

    def hand_reports(self, st: State, player: str) -> list[Act]:
        """The decree's materials drawn by hand (`hand_draw`): every set of materials
        ``player`` may have drawn, whatever the bag holds (its content may be behind the
        screens; a deal the bag cannot hold is refused when all are in)."""
        return [Act.of({"type": "draw_materials", "drawn": {player: list(m)}})
                for m in hand_draw.choices(st, player)]

    def pending(self, st: State) -> Pending:
        detail: dict[str, Any] = {"week": st.week, "day": st.day}
        choice = engine.sealed_choice(st)
        if choice is not None:
            detail["players"] = list(choice.players)
            return Pending("sealed", None, {**detail, "choice": st.step})
        if st.step == "card_values" and st.asking is not None:
            detail["question"] = st.cards.question(*st.asking)
        if st.step == "mayor":
            return Pending("mayor", st.mayor, detail)
        if st.step == "pick_good" and st.rolling:
            return Pending("pick_good", st.rolling[0], detail)
        return Pending(st.step if st.to_move() is None else "turn", st.to_move(),
                       {**detail, "step": st.step})

    def is_chance(self, st: State) -> bool:
        return self.chance_spec(st) is not None

    def chance_spec(self, st: State) -> ChanceSpec | None:
        if st.step == "stalls" and st.week_card is not None:
            contents = tuple(m for m, n in zip(MATERIALS, st.bag, strict=True) for _ in range(n))
            slots = tuple(str(i + 1) for i, n in enumerate(st.week_card.stalls)
                          for _ in range(n))
            count = min(len(slots), len(contents))  # a short bag fills the stalls in order
            return ChanceSpec("stalls", contents, count, slots[:count] or ("1",),
                              outcome=_stalls_outcome_for(len(st.week_card.stalls),
                                                          unseen=st.unseen > 0))
        if st.step in ("more_stalls", "merchants"):
            sizes = (tuple(1 if b is None else 0 for b in st.bought) if st.step == "more_stalls"
                     else (4, 4))
            contents = tuple(m for m, n in zip(MATERIALS, st.bag, strict=True) for _ in range(n))
            slots = tuple(str(i + 1) for i, n in enumerate(sizes) for _ in range(n))
            count = min(len(slots), len(contents))
            return ChanceSpec(st.step, contents, count, slots[:count] or ("1",),
                              outcome=_stalls_outcome_for(len(sizes), "add_materials",
                                                          st.unseen > 0))
        if st.step == "private_materials":  # the decree's two each, behind the screens
            contents = tuple(m for m, n in zip(MATERIALS, st.bag, strict=True) for _ in range(n))
            order = st.order or st.players
            slots = tuple(p for p in order for _ in range(EACH_DRAWS))[:len(contents)]
            return ChanceSpec("private_materials", contents, len(slots), slots,
                              outcome=_private_outcome(tuple(order)))
        deck = DECKS.get(st.step)
        if deck is not None:  # turned up virtually once the box knows the whole deck
            every = cards.whole_deck(st.cards, deck)
            out = {n for d, n in st.turned if d == deck}
            left = tuple(n for n in every or () if n not in out)
            if left:
                return ChanceSpec(f"{deck} deck", left, 1, ("top",), outcome=_deck_outcome)
        if st.step == "good_roll":
            return ChanceSpec("die", ("1", "2", "3", "4", "5", "6"), 1, ("die",),
                              outcome=_good_outcome)
        if st.step == "dice":
            return ChanceSpec("die", ("1", "2", "3", "4", "5", "6"), 1, ("die",),
                              outcome=_die_outcome)
        if st.step == "tiebreak":
            return ChanceSpec("tiebreak", st.tied, len(st.tied),
                              tuple(str(i + 1) for i in range(len(st.tied))),
                              outcome=_tie_outcome)
        return None

    def is_over(self, st: State) -> bool:
        return st.step == "over"

    def sealed_choice(self, st: State) -> SealedChoice | None:
        return engine.sealed_choice(st)

    def sealed_share(self, st: State, player: str, record: dict[str, Any]) -> SealedShare | None:
        return hand_draw.share(st, player, record)

    def sealed_deal(self, st: State, draw: str, shares: dict[str, str]) -> dict[str, Any]:
        return hand_draw.deal(st, draw, shares)

    def view(self, st: State, viewer: str) -> dict[str, Any]:
        return {**views.view(st, viewer), "pending": self.pending(st).to_json()}

    def summary(self, st: State) -> dict[str, Any]:
        return {**views.summary(st), "pending": self.pending(st).to_json()}

    def picture(self, st: State) -> None:
        return None

    def public_action(self, obj: dict[str, Any]) -> dict[str, Any]:
        """Every action is done in sight of the table but the decree's materials drawn
        behind the screens (how many each, not which); a draw from a bag whose content is
        not public loses its marker, so that its seed is withheld (`bag_unseen`)."""
        if obj.get("type") == "draw_materials" and isinstance(obj.get("drawn"), dict):
            return {**obj, "drawn": {p: len(m) if isinstance(m, list) else 0
                                     for p, m in obj["drawn"].items()}}
        if "bag_unseen" in obj:
            return {k: v for k, v in obj.items() if k != "bag_unseen"}
        return obj

    def public_option(self, obj: dict[str, Any]) -> dict[str, Any]:
        return obj

    def from_public(self, st: State, obj: dict[str, Any]) -> dict[str, Any]:
        return obj

    def choice(self, st: State, action: Act) -> dict[str, Any]:
        return {"steps": [words.tell(st, action, engine.apply(st, action))]}

    def narrate(self, before: State, action: Act, after: State) -> list[str]:
        return [words.tell(before, action, after), *words.aftermath(before, after),
                words.now_text(after)]

    def headline(self, before: State, action: Act, after: State) -> str:
        return words.tell(before, action, after)

    def now_text(self, st: State) -> str:
        return words.now_text(st)

    def player_name(self, player: str) -> str:
        return words.name(player)


def _stalls_outcome_for(n: int, kind: str = "fill_stalls", unseen: bool = False) -> Any:
    def outcome(spec: ChanceSpec, drawn: list[str]) -> dict[str, object]:
        stalls: list[list[str]] = [[] for _ in range(n)]
        for slot, material in zip(spec.slots, drawn, strict=False):
            stalls[int(slot) - 1].append(material)
        return {"type": kind, "stalls": stalls, **({"bag_unseen": True} if unseen else {})}
    return outcome


def _private_outcome(order: tuple[str, ...]) -> Any:
    def outcome(spec: ChanceSpec, drawn: list[str]) -> dict[str, object]:
        each: dict[str, list[str]] = {p: [] for p in order}
        for slot, material in zip(spec.slots, drawn, strict=False):
            each[slot].append(material)
        return {"type": "draw_materials", "drawn": each}
    return outcome


GAME: Game = ColoniaGame()
