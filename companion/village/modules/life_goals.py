"""Life goals (*Objectifs de vie*, seed 003): the deal, the conditions and the claims.

Pure functions over the game state. Rule numbers (LS, LC, LA, LG, LE) are those of
``shared/design/port-and-life-goals.md``; ``docs/port-and-life-goals.md`` lists the readings
chosen where the seed is ambiguous.

* The removal table by combination (LS3) is stated in the seed, so it is code.
* The nine gold conditions are stated in the seed (LG1–LG9): predicates over the state.
* The silver goals' items are printed on the cards only: data (``goals.silver.items``,
  unverified), counted by one function (LA6, LA7).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..copying import COPY, with_clone
from ..data import BoardDataError
from ..errors import IllegalAction
from ..state import GameState
from ..vocabulary import INFLUENCE, Color, Cube, Good, Section, member_color, member_generation
from .module_data import require_keys
from .port import PortState, farm_counts, hold_counts


class Tier(StrEnum):
    """The back of a goal tile (LC1)."""

    SILVER = "silver"
    GOLD = "gold"


SILVER: tuple[str, ...] = (
    "aristocrat",
    "farmer",
    "bailiff",
    "writer",
    "knight",
    "carter",
    "brewer",
    "explorer",
)
GOLD: tuple[str, ...] = (
    "minister",
    "master_craftsman",
    "historian",
    "saint",
    "travelling_merchant",
    "disciple",
    "dealer",
    "missionary",
    "innkeeper",
)
TIER: dict[str, Tier] = {**dict.fromkeys(SILVER, Tier.SILVER), **dict.fromkeys(GOLD, Tier.GOLD)}
FRENCH: dict[str, str] = {
    "aristocrat": "L'Aristocrate",
    "farmer": "Le Fermier",
    "bailiff": "L'Huissier",
    "writer": "L'Écrivain",
    "knight": "Le Chevalier",
    "carter": "Le Charretier",
    "brewer": "Le Brasseur",
    "explorer": "L'Explorateur",
    "minister": "Le Ministre",
    "master_craftsman": "Le Maître-artisan",
    "historian": "L'Historien",
    "saint": "Le Saint",
    "travelling_merchant": "Le Marchand itinérant",
    "disciple": "Le Disciple",
    "dealer": "Le Négociant",
    "missionary": "Le Missionnaire",
    "innkeeper": "L'Aubergiste",
}

# The expansions a combination may add to the base game ("inn" is L'Auberge: not in our
# sources, so no game can switch it on; the table keeps the seed's four columns).
EXPANSIONS = frozenset({"port", "inn"})
SUPPORTED = frozenset({"port"})

# LS3 (seed 003 « Mise en place »): goals removed, by combination.
REMOVED: dict[frozenset[str], frozenset[str]] = {
    frozenset(): frozenset({"brewer", "explorer", "innkeeper", "missionary"}),
    frozenset({"inn"}): frozenset({"explorer", "missionary"}),
    frozenset({"port"}): frozenset({"brewer", "innkeeper", "travelling_merchant"}),
    frozenset({"inn", "port"}): frozenset({"travelling_merchant"}),
}

# Item words of a silver goal (LA6): goods, grain, coins, influence cubes, and the Port
# pieces (cocoa, tea, treasure), which count on the hold tile for the Explorer only (LA7).
ITEMS = frozenset(
    {g.value for g in Good} | {c.value for c in INFLUENCE} | {"grain", "coin"}
) | frozenset({"cocoa", "tea", "treasure"})
HOLD_GOALS = frozenset({"explorer"})


@dataclass(frozen=True, slots=True)
class GoalsData:
    """The printed values of the goal tiles (``data/life_goals.json``)."""

    prestige: dict[Tier, int]
    silver_items: dict[str, dict[str, int]]
    merchant_city: str

    def value(self, goal: str) -> int:
        return self.prestige[TIER[goal]]


def build_data(values: Mapping[str, Any]) -> GoalsData:
    """GoalsData from resolved ``goals.*`` values. Raises BoardDataError naming the key."""
    require_keys("life_goals", dict(values))
    prestige = values["goals.prestige"]
    if not isinstance(prestige, dict) or set(prestige) != {"silver", "gold"}:
        raise BoardDataError("goals.prestige: expected {'silver': n, 'gold': n}")
    if any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in prestige.values()):
        raise BoardDataError("goals.prestige: expected whole numbers ≥ 0")
    items = values["goals.silver.items"]
    if not isinstance(items, dict) or set(items) != set(SILVER):
        raise BoardDataError(f"goals.silver.items: expected one entry per silver goal {SILVER}")
    for goal, wants in items.items():
        if not isinstance(wants, dict) or any(k not in ITEMS for k in wants):
            raise BoardDataError(f"goals.silver.items: {goal} names an unknown item")
        if any(not isinstance(n, int) or isinstance(n, bool) or n < 1 for n in wants.values()):
            raise BoardDataError(f"goals.silver.items: {goal} counts must be whole numbers ≥ 1")
    city = values["goals.travelling_merchant_city"]
    if not isinstance(city, str) or not city:
        raise BoardDataError("goals.travelling_merchant_city: expected a city id")
    return GoalsData(
        {Tier(k): n for k, n in prestige.items()},
        {g: dict(w) for g, w in items.items()},
        city,
    )


# --- the deal (LS2–LS5) -----------------------------------------------------------------


def pools(expansions: frozenset[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The silver and gold goals left after the removals of LS3 for this combination.

    Raises ValueError for a combination naming an unknown expansion.
    """
    unknown = expansions - EXPANSIONS
    if unknown:
        raise ValueError(f"unknown expansion(s) {sorted(unknown)}; known: {sorted(EXPANSIONS)}")
    out = REMOVED[expansions]
    return (
        tuple(g for g in SILVER if g not in out),
        tuple(g for g in GOLD if g not in out),
    )


@dataclass(frozen=True, slots=True)
class Hand:
    """A player's two goals: one silver, one gold (LS4)."""

    silver: str
    gold: str

    def goals(self) -> tuple[str, str]:
        return (self.silver, self.gold)


@with_clone
@dataclass(slots=True)
class GoalsState:
    """Who holds which goal, and which are claimed. ``auto`` claims every goal the moment
    its condition holds (a per-game choice; the default, by hand, is closest to LA2's
    « vous pouvez »). Goals are dealt a tier at a time (silver, then gold)."""

    expansions: frozenset[str]
    silver: dict[Color, str] = field(default_factory=dict, metadata=COPY)
    gold: dict[Color, str] = field(default_factory=dict, metadata=COPY)
    claimed: dict[Color, frozenset[str]] = field(default_factory=dict, metadata=COPY)
    auto: bool = False
    data: GoalsData | None = None  # the printed values (shared, immutable)

    def clone(self) -> GoalsState:  # pragma: no cover - replaced by @with_clone
        """A copy sharing nothing mutable."""
        raise NotImplementedError

    def tier(self, tier: Tier) -> dict[Color, str]:
        return self.silver if tier is Tier.SILVER else self.gold

    @property
    def hands(self) -> dict[Color, Hand]:
        """The players dealt both their goals."""
        return {c: Hand(s, self.gold[c]) for c, s in self.silver.items() if c in self.gold}

    def dealt(self) -> set[str]:
        return set(self.silver.values()) | set(self.gold.values())


def goals_of(st: GameState) -> GoalsState | None:
    """The life goals' part of the table (None: the module is off)."""
    found = st.modules.get("life_goals")
    assert found is None or isinstance(found, GoalsState)
    return found


def new_goals(
    expansions: frozenset[str], *, auto: bool = False, data: GoalsData | None = None
) -> GoalsState:
    """The goals of a new game, none dealt yet. Raises ValueError for a combination the
    engine cannot play (L'Auberge is not in our sources)."""
    unsupported = expansions - SUPPORTED
    if unsupported:
        raise ValueError(f"expansion(s) not supported: {sorted(unsupported)}")
    pools(expansions)
    return GoalsState(expansions, auto=auto, data=data)


def pool(gs: GoalsState, tier: Tier) -> tuple[str, ...]:
    silver, gold = pools(gs.expansions)
    return silver if tier is Tier.SILVER else gold


def deal_refusal(
    gs: GoalsState, players: tuple[Color, ...], tier: Tier, color: Color, goal: str
) -> tuple[str, str] | None:
    """Why ``goal`` cannot be dealt to ``color`` now, as (rule, plain words), or None when
    it can: LS3 and LS4."""
    if color not in players:
        return "LS4", f"{color.value.capitalize()} is not at the table"
    if color in gs.tier(tier):
        return "LS4", f"{color.value.capitalize()} was already dealt their {tier} goal"
    left = pool(gs, tier)
    if goal not in left:
        return "LS3/LS4", (
            f"{FRENCH[goal]} is not a {tier} goal of this game "
            f"(the {tier} goals are {', '.join(FRENCH[g] for g in left)})"
        )
    if goal in gs.dealt():
        return "LS4", (
            f"{FRENCH[goal]} is already dealt to another player: each tile is dealt once, "
            "check the tile drawn"
        )
    return None


def deal_tier(
    gs: GoalsState, players: tuple[Color, ...], tier: Tier, goals: Mapping[Color, str]
) -> None:
    """Record goals of one tier (a virtual deal names every player; at a table dealing by
    hand, each player reports their own). Raises IllegalAction naming the rule; ``gs`` is
    unchanged then."""
    trial = gs.clone()
    for color, goal in goals.items():
        refusal = deal_refusal(trial, players, tier, color, goal)
        if refusal:
            rule, words = refusal
            raise IllegalAction(
                f"illegal deal for {color} — {rule}: {words}", code="bad_deal", rule=rule
            )
        trial.tier(tier)[color] = goal
    gs.tier(tier).update(trial.tier(tier))


def deal(gs: GoalsState, players: tuple[Color, ...], hands: Mapping[Color, Hand]) -> None:
    """Record both goals of some players at once (all or nothing). Raises IllegalAction."""
    trial = gs.clone()
    deal_tier(trial, players, Tier.SILVER, {c: h.silver for c, h in hands.items()})
    deal_tier(trial, players, Tier.GOLD, {c: h.gold for c, h in hands.items()})
    gs.silver, gs.gold = trial.silver, trial.gold


def still_to_deal(
    gs: GoalsState, players: tuple[Color, ...], tier: Tier | None = None
) -> list[Color]:
    """Players still to be dealt a goal (of ``tier``, or of either)."""
    tiers = [tier] if tier else [Tier.SILVER, Tier.GOLD]
    return [c for c in players if any(c not in gs.tier(t) for t in tiers)]


# --- conditions -------------------------------------------------------------------------


def _places(st: GameState, color: Color, zone: str) -> list[Any]:
    return [st.members[m][1] for m in st.family(color) if st.members[m][0] == zone]


def _chronicled(st: GameState, color: Color) -> dict[Section, int]:
    return {s: sum(1 for m in st.chronicle[s] if member_color(m) == color) for s in Section}


def _count(n: int, one: str, many: str | None = None) -> str:
    """``n`` with the word in the singular or plural: "1 more customer", "2 more customers"."""
    return f"{n} {one if n == 1 else many or one + 's'}"


# Each gold check returns what is still missing, in words (empty: the condition holds).
def _minister(st: GameState, color: Color, data: GoalsData) -> list[str]:
    # LG1: a member on council level 4 and the next-first-player marker.
    out = []
    if 4 not in _places(st, color, "council"):
        out.append("a member on council level 4")
    if st.next_first != color:
        out.append("the next-first-player marker")
    return out


def _master_craftsman(st: GameState, color: Color, data: GoalsData) -> list[str]:
    # LG2: 4 members in Crafts, craft buildings and the chronicle's Crafts section together.
    n = len(_places(st, color, "craft")) + _chronicled(st, color)[Section.CRAFTS]
    more = _count(4 - n, "more member", "more members")
    return [] if n >= 4 else [f"{more} in Crafts (buildings or chronicle)"]


def _historian(st: GameState, color: Color, data: GoalsData) -> list[str]:
    # LG3: members in at least 4 different chronicle sections.
    n = sum(1 for k in _chronicled(st, color).values() if k)
    return [] if n >= 4 else [f"members in {_count(4 - n, 'more chronicle section')}"]


SAINT_WINDOWS = (1, 2, 3)  # LG4 read as the three rightmost windows (1 = rightmost)


def _saint(st: GameState, color: Color, data: GoalsData) -> list[str]:
    # LG4: one member on each of the three windows on the right side of the church.
    have = set(_places(st, color, "church"))
    return [f"a member on church window {w}" for w in SAINT_WINDOWS if w not in have]


def _travelling_merchant(st: GameState, color: Color, data: GoalsData) -> list[str]:
    # LG5: a member (not a marker) in the top-right city, and 2 customers served.
    out = []
    if data.merchant_city not in _places(st, color, "travel"):
        out.append(f"a member in the city {data.merchant_city}")
    served = len(st.p[color].customers)
    if served < 2:
        out.append(f"{_count(2 - served, 'more customer')} served")
    return out


def _disciple(st: GameState, color: Color, data: GoalsData) -> list[str]:
    # LG6: a 4th-generation member in the church (on a window; the black bag is not read
    # as "in the church").
    ok = any(st.members[m][0] == "church" and member_generation(m) == 4 for m in st.family(color))
    return [] if ok else ["a 4th-generation member on a church window"]


def _dealer(st: GameState, color: Color, data: GoalsData) -> list[str]:
    # LG7: 6 customers served.
    served = len(st.p[color].customers)
    return [] if served >= 6 else [f"{_count(6 - served, 'more customer')} served"]


def _missionary(st: GameState, color: Color, data: GoalsData) -> list[str]:
    # LG8: members on at least 2 mission churches (Port's sea board).
    n = len(set(_places(st, color, "mission")))
    churches = _count(2 - n, "more mission church", "more mission churches")
    return [] if n >= 2 else [f"members on {churches}"]


def _innkeeper(st: GameState, color: Color, data: GoalsData) -> list[str]:
    # LG9: 4 villager cards in hand. Villager cards come with L'Auberge, which no game can
    # switch on here, so the hand is always empty.
    return ["4 villager cards in hand (L'Auberge)"]


GOLD_CHECKS: dict[str, Callable[[GameState, Color, GoalsData], list[str]]] = {
    "minister": _minister,
    "master_craftsman": _master_craftsman,
    "historian": _historian,
    "saint": _saint,
    "travelling_merchant": _travelling_merchant,
    "disciple": _disciple,
    "dealer": _dealer,
    "missionary": _missionary,
    "innkeeper": _innkeeper,
}


def holdings(st: GameState, color: Color, port: PortState | None) -> dict[str, int]:
    """What a family owns, in silver-goal item words. Cargo on the hold tile is not on the
    farm and does not count (see ``docs/port-and-life-goals.md``, ambiguity 6)."""
    player = st.p[color]
    out: dict[str, int] = {g.value: player.goods[g] for g in Good}
    out.update({c.value: player.cubes[Cube(c)] for c in INFLUENCE})
    out["grain"] = player.grain
    out["coin"] = player.coins
    out.update(farm_counts(port, color) if port else {"cocoa": 0, "tea": 0, "treasure": 0})
    return out


def missing(
    st: GameState, color: Color, goal: str, data: GoalsData, port: PortState | None = None
) -> list[str]:
    """What ``color`` still lacks for ``goal``, in words; empty when the condition holds.
    Minima: more than asked still counts (LA5). Raises KeyError for an unknown goal."""
    if TIER[goal] is Tier.GOLD:
        return GOLD_CHECKS[goal](st, color, data)
    wants = data.silver_items[goal]
    if goal == "brewer":
        return ["the Brewer's items (L'Auberge)"]
    have = hold_counts(port, color) if goal in HOLD_GOALS else holdings(st, color, port)
    where = " on the hold tile" if goal in HOLD_GOALS else ""
    return [
        f"{n - have.get(item, 0)} more {_item_words(item, n - have.get(item, 0))}{where}"
        for item, n in sorted(wants.items())
        if have.get(item, 0) < n
    ]


_PLURALS = {
    "ox": "oxen",
    "grain": "grain",
    "cocoa": "cocoa baskets",
    "tea": "tea bales",
    **{c.value: f"{c.value} cubes" for c in INFLUENCE},
}
_SINGULARS = {
    "cocoa": "cocoa basket",
    "tea": "tea bale",
    **{c.value: f"{c.value} cube" for c in INFLUENCE},
}


def _item_words(item: str, n: int) -> str:
    if n == 1:
        return _SINGULARS.get(item, item)
    return _PLURALS.get(item, item + "s")


def met(
    st: GameState, color: Color, goal: str, data: GoalsData, port: PortState | None = None
) -> bool:
    """True when ``color`` meets every condition of ``goal`` now."""
    return not missing(st, color, goal, data, port)


# --- claims (LA2–LA4) -------------------------------------------------------------------


def claim_refusal(
    st: GameState,
    gs: GoalsState,
    color: Color,
    goal: str,
    data: GoalsData,
    port: PortState | None = None,
) -> str | None:
    """Why ``color`` may not claim ``goal`` now (None when they may)."""
    if goal not in TIER:
        return f"{goal!r} is not a life goal"
    hand = gs.hands.get(color)
    if hand is None or goal not in hand.goals():
        return f"LS4/LS5: {FRENCH[goal]} is not one of {color}'s goals"
    if goal in gs.claimed.get(color, frozenset()):
        return f"LA3: {FRENCH[goal]} was already claimed and is back in the box"
    lacks = missing(st, color, goal, data, port)
    if lacks:
        return f"LA2: {FRENCH[goal]} is not met yet: still missing {', '.join(lacks)}"
    return None


def claim(
    st: GameState,
    gs: GoalsState,
    color: Color,
    goal: str,
    data: GoalsData,
    port: PortState | None = None,
) -> None:
    """Reveal ``goal`` and win its prestige at once; nothing is spent (LA2–LA4). Changes
    ``st`` and ``gs`` (the engine's fresh clones). Raises IllegalAction naming the rule,
    changing nothing."""
    reason = claim_refusal(st, gs, color, goal, data, port)
    if reason:
        raise IllegalAction(
            f"illegal: claim {goal!r} by {color} — {reason}", code="goal", rule=reason
        )
    st.own(color).prestige += data.value(goal)
    gs.claimed[color] = gs.claimed.get(color, frozenset()) | {goal}


def claimable(
    st: GameState, gs: GoalsState, color: Color, data: GoalsData, port: PortState | None = None
) -> list[str]:
    """The goals ``color`` may claim now (the private page's claim buttons)."""
    hand = gs.hands.get(color)
    if hand is None:
        return []
    return [g for g in hand.goals() if claim_refusal(st, gs, color, g, data, port) is None]


def auto_claim(
    st: GameState,
    gs: GoalsState,
    players: tuple[Color, ...],
    data: GoalsData,
    port: PortState | None = None,
) -> list[tuple[Color, str]]:
    """In a game set to claim automatically, claim every goal now met, in seat order;
    returns what was claimed. Does nothing when ``gs.auto`` is off."""
    if not gs.auto:
        return []
    out = []
    for color in players:
        for goal in claimable(st, gs, color, data, port):
            claim(st, gs, color, goal, data, port)
            out.append((color, goal))
    return out


def visible_hand(gs: GoalsState, color: Color, viewer: str) -> dict[str, Any]:
    """A player's goals as ``viewer`` may see them: all to the owner (a tier at a time while
    the deal goes on), only claimed goals to anyone else (LS5). ``dealt``: both tiers are."""
    claimed = sorted(gs.claimed.get(color, frozenset()))
    out: dict[str, Any] = {"dealt": color in gs.hands, "claimed": claimed}
    if viewer == color.value:
        out.update({t.value: gs.tier(t)[color] for t in Tier if color in gs.tier(t)})
    return out
