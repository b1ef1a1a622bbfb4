"""Actions: every change to a game is one of these, stored as one JSON object per line.

Decisions carry the ``player`` who takes them; chance actions (``reveal_customers``,
``fill_bag``, ``mass_draw``) carry their outcome, whoever produced it (a virtual bag, or
players drawing by hand). ``docs/game-record.md`` documents every type and field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from .errors import MalformedAction
from .vocabulary import ALL_MEMBERS, INFLUENCE, MONK, Building, Color, Cube, Good, MemberId, Space

# A payment choice: sorted (resource, count) pairs. Resources: influence colours, "coin",
# "scroll", "time". Fixed costs (the wagon of a trip, goods a customer wants) are implied.
Pay = tuple[tuple[str, int], ...]
PAY_RESOURCES = frozenset({c.value for c in INFLUENCE} | {"coin", "scroll", "time"})


def pay_of(mapping: Mapping[str, int]) -> Pay:
    """Canonical Pay from a mapping; zero counts are dropped."""
    return tuple(sorted((k, v) for k, v in mapping.items() if v))


@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions; ``type`` is the record's ``"type"`` field."""

    type: ClassVar[str] = ""
    chance: ClassVar[bool] = False

    def to_json(self) -> dict[str, Any]:
        """The record form of this action."""
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _MAPPING_FIELDS:
                out[f.name] = {str(k): _to_json(v) for k, v in value}
            else:
                out[f.name] = _to_json(value)
        return out


_MAPPING_FIELDS = frozenset({"pay", "tiles", "spaces"})


def _to_json(value: Any) -> Any:
    if isinstance(value, (Color, Cube, Good, Space, Building)):
        return value.value
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return {str(_to_json(k)): _to_json(v) for k, v in value}
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Decision(Action):
    """An action someone chooses; ``player`` must be the one the pending decision names."""

    player: Color


# --- chance -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RevealCustomers(Action):
    """Customer tiles turned up from the stack onto market spaces: (slot, tile id) pairs."""

    type: ClassVar[str] = "reveal_customers"
    chance: ClassVar[bool] = True
    tiles: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class FillBag(Action):
    """Round start: the setup card's cubes and all supply plague go in the green bag, then
    these cubes come out onto the action spaces: (space, ((cube, count), ...)) pairs."""

    type: ClassVar[str] = "fill_bag"
    chance: ClassVar[bool] = True
    spaces: tuple[tuple[Space, tuple[tuple[Cube, int], ...]], ...]


@dataclass(frozen=True, slots=True)
class MassDraw(Action):
    """The figures drawn at random from the black bag at mass: member ids and ``monk``."""

    type: ClassVar[str] = "mass_draw"
    chance: ClassVar[bool] = True
    figures: tuple[str, ...]


# --- a turn -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TakeCube(Decision):
    """Take a cube from an action space (then that space's action may follow)."""

    type: ClassVar[str] = "take"
    space: Space
    cube: Cube


@dataclass(frozen=True, slots=True)
class UseWell(Decision):
    """The well: return 3 influence cubes of one colour instead of taking a cube, then do
    the action of any space. ``pay`` is empty (the 3 cubes) unless the game's house rule
    ``well_coins`` lets coins stand in for some of them: then it names cubes and coins."""

    type: ClassVar[str] = "well"
    color: Cube
    space: Space
    pay: Pay = ()


@dataclass(frozen=True, slots=True)
class FreeAction(Decision):
    """A final turn when the board holds no cube: any action, no cube, no well payment."""

    type: ClassVar[str] = "free"
    space: Space


@dataclass(frozen=True, slots=True)
class Skip(Decision):
    """Decline the optional action of the space (or a council privilege)."""

    type: ClassVar[str] = "skip"


@dataclass(frozen=True, slots=True)
class Harvest(Decision):
    """Grain harvest: 2 sacks, 3 with horse + plough, 4 with ox + plough; farm holds 5."""

    type: ClassVar[str] = "harvest"


@dataclass(frozen=True, slots=True)
class Birth(Decision):
    """Family: the youngest generation still unborn joins the farm."""

    type: ClassVar[str] = "birth"


@dataclass(frozen=True, slots=True)
class Recall(Decision):
    """Family: a living member on the board comes home to the farm."""

    type: ClassVar[str] = "recall"
    member: MemberId


@dataclass(frozen=True, slots=True)
class Train(Decision):
    """Crafts: place a farm member in a building for its training time; ``good`` is what it
    then produces at once for its production time, or null to train only."""

    type: ClassVar[str] = "train"
    building: Building
    member: MemberId
    good: Good | None = None


@dataclass(frozen=True, slots=True)
class Produce(Decision):
    """Crafts: a member already in the building produces its good for time."""

    type: ClassVar[str] = "produce"
    building: Building
    good: Good


@dataclass(frozen=True, slots=True)
class Buy(Decision):
    """Crafts: buy a good with cubes (coins as jokers) or grain, no member needed."""

    type: ClassVar[str] = "buy"
    good: Good
    pay: Pay = ()


@dataclass(frozen=True, slots=True)
class Mill(Decision):
    """Crafts, the mill: 2 time + 2 grain for 2 coins."""

    type: ClassVar[str] = "mill"


@dataclass(frozen=True, slots=True)
class Serve(Decision):
    """Market day: serve the customer on a stall; ``pay`` is the green cube (or coin) every
    sale but the trigger's first one costs, with 1 time."""

    type: ClassVar[str] = "serve"
    slot: int
    pay: Pay = ()


@dataclass(frozen=True, slots=True)
class Pass(Decision):
    """Market day: stop selling for the rest of this market day."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Travel(Decision):
    """Travel one path: a farm member to a start city, or a traveller to a neighbour.
    ``pay`` is the path's 2 cubes (coins as jokers); ``gain`` the cubes chosen when the
    city's reward is 2 cubes."""

    type: ClassVar[str] = "travel"
    member: MemberId
    city: str
    pay: Pay = ()
    gain: tuple[Cube, ...] = ()


@dataclass(frozen=True, slots=True)
class CouncilEnter(Decision):
    """Council: a farm member onto level 1 for 1 time + (2 green or 1 scroll)."""

    type: ClassVar[str] = "council_enter"
    member: MemberId
    pay: Pay = ()


@dataclass(frozen=True, slots=True)
class CouncilAdvance(Decision):
    """Council: a member one level up for time + (2 green or 1 scroll)."""

    type: ClassVar[str] = "council_advance"
    member: MemberId
    pay: Pay = ()


@dataclass(frozen=True, slots=True)
class Privilege(Decision):
    """Council privilege: 1 next first player, 2 two cubes (``gain``), 3 one good
    (``gain``), 4 one coin for 3 prestige."""

    type: ClassVar[str] = "privilege"
    level: int
    gain: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Church(Decision):
    """Church: a farm member into the black bag for 1 brown (or a coin) or 3 time."""

    type: ClassVar[str] = "church"
    member: MemberId
    pay: Pay = ()


@dataclass(frozen=True, slots=True)
class Die(Decision):
    """Choose which of your oldest visible members dies."""

    type: ClassVar[str] = "die"
    member: MemberId


@dataclass(frozen=True, slots=True)
class Buyout(Decision):
    """Mass: pay 1 coin per own member taken out of the black bag (empty = none)."""

    type: ClassVar[str] = "buyout"
    members: tuple[MemberId, ...]


@dataclass(frozen=True, slots=True)
class ChurchMove(Decision):
    """Mass: move a church member one window left, paying the grain printed between."""

    type: ClassVar[str] = "church_move"
    member: MemberId


@dataclass(frozen=True, slots=True)
class Done(Decision):
    """Mass: finish moving members in the church."""

    type: ClassVar[str] = "done"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (
        RevealCustomers,
        FillBag,
        MassDraw,
        TakeCube,
        UseWell,
        FreeAction,
        Skip,
        Harvest,
        Birth,
        Recall,
        Train,
        Produce,
        Buy,
        Mill,
        Serve,
        Pass,
        Travel,
        CouncilEnter,
        CouncilAdvance,
        Privilege,
        Church,
        Die,
        Buyout,
        ChurchMove,
        Done,
    )
}


# --- parsing ----------------------------------------------------------------------------


def _enum(kind: Callable[[str], Any], name: str) -> Callable[[Any], Any]:
    def parse(v: Any) -> Any:
        if not isinstance(v, str):
            raise MalformedAction(f"field {name!r} must be a string, got {v!r}")
        try:
            return kind(v)
        except ValueError:
            raise MalformedAction(f"field {name!r}: {v!r} is not a valid value") from None

    return parse


def _member(v: Any) -> MemberId:
    if not isinstance(v, str) or v not in ALL_MEMBERS:
        raise MalformedAction(f"{v!r} is not a member id (like 'red-1a')")
    return MemberId(v)


def _int(v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise MalformedAction(f"expected a whole number, got {v!r}")
    return v


def _pay(v: Any) -> Pay:
    if not isinstance(v, dict):
        raise MalformedAction(f"'pay' must be an object like {{'green': 2}}, got {v!r}")
    for k, n in v.items():
        if k not in PAY_RESOURCES:
            raise MalformedAction(f"'pay' names unknown resource {k!r}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise MalformedAction(f"'pay' count for {k!r} must be a whole number ≥ 0")
    return pay_of(v)


def _counts(v: Any) -> tuple[tuple[Cube, int], ...]:
    if not isinstance(v, dict):
        raise MalformedAction(f"expected cube counts like {{'brown': 1}}, got {v!r}")
    parse = _enum(Cube, "cube")
    return tuple(sorted((parse(k), _int(n)) for k, n in v.items() if n))


def _list(item: Callable[[Any], Any], *, sort: bool) -> Callable[[Any], tuple[Any, ...]]:
    def parse(v: Any) -> tuple[Any, ...]:
        if not isinstance(v, list):
            raise MalformedAction(f"expected a list, got {v!r}")
        out = [item(x) for x in v]
        return tuple(sorted(out)) if sort else tuple(out)

    return parse


def _distinct_members(v: Any) -> tuple[str, ...]:
    members = _list(_member, sort=True)(v)
    if len(set(members)) != len(members):
        raise MalformedAction(f"'members' names a member twice: {list(members)}")
    return members


def _figure(v: Any) -> str:
    return MONK if v == MONK else _member(v)


def _city(v: Any) -> str:
    if not isinstance(v, str) or not v:
        raise MalformedAction(f"'city' must be a city name, got {v!r}")
    return v


def _good_or_none(v: Any) -> Good | None:
    return None if v is None else _parse_good(v)


def _tiles(v: Any) -> tuple[tuple[int, str], ...]:
    if not isinstance(v, dict):
        raise MalformedAction("'tiles' must map slot numbers to tile ids")
    out = []
    for k, t in v.items():
        try:
            slot = int(k)
        except ValueError:
            raise MalformedAction(f"'tiles': {k!r} is not a slot number") from None
        if not isinstance(t, str):
            raise MalformedAction(f"'tiles': tile id must be a string, got {t!r}")
        out.append((slot, t))
    return tuple(sorted(out))


def _spaces(v: Any) -> tuple[tuple[Space, tuple[tuple[Cube, int], ...]], ...]:
    if not isinstance(v, dict):
        raise MalformedAction("'spaces' must map action spaces to cube counts")
    parse = _enum(Space, "space")
    return tuple(sorted((parse(k), _counts(c)) for k, c in v.items()))


_parse_good = _enum(Good, "good")

_FIELD_PARSERS: dict[str, Callable[[Any], Any]] = {
    "player": _enum(Color, "player"),
    "space": _enum(Space, "space"),
    "cube": _enum(Cube, "cube"),
    "color": _enum(Cube, "color"),
    "building": _enum(Building, "building"),
    "good": _enum(Good, "good"),
    "member": _member,
    "members": _distinct_members,
    "figures": _list(_figure, sort=True),
    "city": _city,
    "slot": _int,
    "level": _int,
    "pay": _pay,
    "gain": _list(str, sort=True),
    "tiles": _tiles,
    "spaces": _spaces,
}


# Fields whose type differs from the field of the same name elsewhere.
_CLASS_FIELD_PARSERS: dict[tuple[type[Action], str], Callable[[Any], Any]] = {
    (Train, "good"): _good_or_none,  # null: train without producing
    (Travel, "gain"): _list(_enum(Cube, "gain"), sort=True),
}


@dataclass(frozen=True, slots=True)
class RecordForms:
    """The record form of a set of action types: ``type`` → class, field name → parser.
    The base game's is `BASE_FORMS`; each rule module's types are added with `with_types`
    (a game's rules carry the forms of every module it knows, `Rules.forms`)."""

    types: Mapping[str, type[Action]]
    parsers: Mapping[str, Callable[[Any], Any]]

    @property
    def field_names(self) -> frozenset[str]:
        """Every field name an action may carry besides ``type``."""
        return frozenset(self.parsers)

    def with_types(
        self, types: tuple[type[Action], ...], parsers: Mapping[str, Callable[[Any], Any]]
    ) -> RecordForms:
        """These forms and a module's action types and field parsers. Raises ValueError
        when a type or field name is taken by a different definition."""
        for cls in types:
            if self.types.get(cls.type, cls) is not cls:
                raise ValueError(f"action type {cls.type!r} is defined twice")
        for name, parse in parsers.items():
            if self.parsers.get(name, parse) is not parse:
                raise ValueError(f"action field {name!r} is parsed two ways")
        return RecordForms(
            {**self.types, **{cls.type: cls for cls in types}}, {**self.parsers, **parsers}
        )

    def parse(self, obj: Any) -> Action:
        """Build an action from its record form.

        Raises MalformedAction for an unknown ``type``, a missing, extra or mistyped field.
        """
        if not isinstance(obj, dict):
            raise MalformedAction(f"an action is a JSON object, got {obj!r}")
        kind = obj.get("type")
        cls = self.types.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise MalformedAction(f"unknown action type {kind!r}; known: {sorted(self.types)}")
        known = fields(cls)
        extra = set(obj) - {f.name for f in known} - {"type"}
        if extra:
            raise MalformedAction(f"{kind}: unexpected field(s) {sorted(extra)}")
        kwargs: dict[str, Any] = {}
        for f in known:
            if f.name in obj:
                parse = _CLASS_FIELD_PARSERS.get((cls, f.name), self.parsers[f.name])
                kwargs[f.name] = parse(obj[f.name])
            elif f.default is MISSING:
                raise MalformedAction(f"{kind}: missing field {f.name!r}")
        return cls(**kwargs)


BASE_FORMS = RecordForms(ACTION_TYPES, _FIELD_PARSERS)
"""The base game's action types (a rule module's are in its game's `Rules.forms`)."""
