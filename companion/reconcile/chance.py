"""Chance outcomes read off the table: a green bag drawn by hand (``fill_bag``, from the
cubes seen on the action spaces) and the figures drawn from the black bag at mass
(``mass_draw``, from the figures seen arriving in the church's first window or leaving
the bag; a camera's colour count of that window gives every draw it allows). Customer
tiles are not seen by any sensor: they come from the tablet.

A fill the bag cannot have held (a cube's colour misread, a cube missed or counted twice)
is not dropped: the legal fills one misread away stand in for it (`fill_variants`), to be
asked."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from itertools import combinations, product

from companion import village as v
from companion.village import zones
from companion.village.actions import Action, FillBag, MassDraw
from companion.village.chance import fill_legal
from companion.village.flow import draw_count
from companion.village.picture import CUBE_ORDER, RegionValue, regions_of, signature
from companion.village.vocabulary import MONK, Space

from .observed import ByColour, colour_of

WINDOWS = 4  # the church's windows, 1 (rightmost, where the drawn figures go) to 4


def fill_from(observed: Mapping[str, RegionValue]) -> FillBag | None:
    """The ``fill_bag`` whose cubes are the ones seen on every action space, or None when
    some space is not seen."""
    spaces = []
    for s in Space:
        counts = observed.get(zones.space(s))
        if not isinstance(counts, tuple):
            return None
        spaces.append((s, tuple((c, n) for c, n in zip(CUBE_ORDER, counts, strict=True) if n)))
    return FillBag(tuple(sorted(spaces)))


def one_colour_off(read: FillBag) -> Iterator[FillBag]:
    """Every fill that differs from ``read`` by one cube's colour on one space (what a
    camera misreads now and then), legal or not, in a stable order."""
    for i, (space, cubes) in enumerate(read.spaces):
        for cube, n in cubes:
            for other in CUBE_ORDER:
                if other == cube:
                    continue
                counts = dict(cubes)
                counts[cube] = n - 1
                counts[other] = counts.get(other, 0) + 1
                layout = tuple(sorted((c, k) for c, k in counts.items() if k))
                yield FillBag(tuple(sorted(
                    (*read.spaces[:i], (space, layout), *read.spaces[i + 1:]))))


def one_count_off(read: FillBag) -> Iterator[FillBag]:
    """Every fill that differs from ``read`` by one cube more or fewer on one space (a
    cube the camera missed, or counted twice), legal or not, in a stable order."""
    have = dict(read.spaces)
    for space in sorted(have):
        counts = dict(have[space])
        for cube in CUBE_ORDER:
            for d in (1, -1):
                if counts.get(cube, 0) + d < 0:
                    continue
                now = {**counts, cube: counts.get(cube, 0) + d}
                layout = tuple(sorted((c, k) for c, k in now.items() if k))
                spaces = {**have, space: layout}
                yield FillBag(tuple(sorted(spaces.items())))


def fill_variants(st: v.GameState, read: FillBag) -> list[FillBag]:
    """The legal fills one misread away from ``read`` (`one_colour_off`, then
    `one_count_off`), each once."""
    maybe = itertools.chain(one_colour_off(read), one_count_off(read))
    return list(dict.fromkeys(f for f in maybe if fill_legal(st, f)))


def taken_since(st: v.GameState, read: FillBag) -> list[FillBag]:
    """The legal fills with one cube more than ``read`` on one space: a fill first seen
    after the next player took a cube (the spaces read one cube short of the setup
    card's count), each once, in a stable order. The search keeps those a take explains."""
    out: list[FillBag] = []
    for space in Space:
        cubes = dict(read.spaces).get(space, ())
        for cube in CUBE_ORDER:
            counts = dict(cubes)
            counts[cube] = counts.get(cube, 0) + 1
            layout = tuple(sorted((c, k) for c, k in counts.items() if k))
            fill = FillBag(tuple(sorted(
                (*((sp, c) for sp, c in read.spaces if sp != space), (space, layout)))))
            if fill_legal(st, fill) and fill not in out:
                out.append(fill)
    return out


def fill_question(short: bool) -> str:
    """The question about a green-bag fill read that the bag cannot hold: misread, or
    (``short``) a cube already taken from it."""
    if short:
        return ("The cubes seen on the action spaces are one short of the green bag's "
                "fill (the first cube taken already?): where was it?")
    return ("The cubes seen on the action spaces cannot all have come from the green bag: "
            "which did the camera misread?")


def fill_change_words(read: FillBag, fill: FillBag) -> str:
    """Where ``fill`` differs from what was ``read``, in a few words ("Market: a pink cube,
    not a brown one")."""
    said = []
    was = dict(read.spaces)
    now_all = dict(fill.spaces)
    for space in sorted({*was, *now_all}, key=lambda s: s.value):
        before, now = dict(was.get(space, ())), dict(now_all.get(space, ()))
        more = [c.value for c in CUBE_ORDER if now.get(c, 0) > before.get(c, 0)]
        less = [c.value for c in CUBE_ORDER if now.get(c, 0) < before.get(c, 0)]
        name = space.value.capitalize()
        if more and less:
            said.append(f"{name}: {' and '.join(more)}, not {' and '.join(less)}")
        elif more:
            said.append(f"{name}: one {' and '.join(more)} more")
        elif less:
            said.append(f"{name}: one {' and '.join(less)} fewer")
    return "; ".join(said) or "as seen"


def draw_from(st: v.GameState, observed: Mapping[str, RegionValue]) -> list[MassDraw]:
    """The ``mass_draw`` outcomes matching the figures seen newly in church window 1 (or
    gone from the black bag); the rest of the count are monks. A window read by a tag
    reader or a bag read gives one outcome; a window a camera counts by colour
    (``ByColour``) gives one per choice of generations among the bag's figures of each
    colour seen arriving (figures of a colour and generation are alike for the rules).
    Empty when nothing tells the draw, or the reading fits no draw.

    Messe, phase 1 (rulebook ``000_…``, « Messe »): four figures are drawn in all (those
    bought out first), the monks among them go back into the bag, and the family members
    drawn are put on the church's rightmost large window (``church:1``): figures newly
    there came from the bag."""
    expected = regions_of(st)
    in_bag = sorted(m for m, loc in st.members.items() if loc[0] == "bag")
    window = zones.zone(zones.CHURCH, 1)
    seen = observed.get(window)
    if isinstance(seen, tuple):
        extra = _minus(seen, expected[window])
    elif isinstance(observed.get(zones.BAG), tuple):
        extra = _minus(expected[zones.BAG], observed[zones.BAG])
    elif isinstance(seen, ByColour):
        draws = _draws_by_colour(st, in_bag, seen, expected[window])
        whole = _whole_church(observed, expected)
        if whole is not None:  # a drawn figure may have moved on already
            draws += [d for d in _draws_by_colour(st, in_bag, *whole) if d not in draws]
        return draws
    else:
        return []
    members: list[str] = []
    for sig in extra:
        pick = next((m for m in in_bag if signature(m) == sig and m not in members), None)
        if pick is None:
            return []
        members.append(pick)
    draw = _with_monks(st, members)
    return [draw] if draw is not None else []


def _whole_church(observed: Mapping[str, RegionValue], expected: Mapping[str, RegionValue],
                  ) -> tuple[ByColour, tuple[str, ...]] | None:
    """The figures a camera counts in the whole church (every window read by colour) and
    those the game has there, or None when a window is not read so. The figures the mass
    drew are on window 1 at first, then moved left window by window (the mass's next
    step, paid in grain): by the time the table settles a drawn figure may stand on
    window 2 already, and only the church's whole count still shows it came."""
    counts: dict[str, int] = {}
    before: list[str] = []
    for w in range(1, WINDOWS + 1):
        name = zones.zone(zones.CHURCH, w)
        seen, was = observed.get(name), expected.get(name)
        if not isinstance(seen, ByColour) or not isinstance(was, tuple):
            return None
        for colour, n in seen.counts:
            counts[colour] = counts.get(colour, 0) + n
        before += [str(sig) for sig in was]
    return ByColour(counts), tuple(before)


def _with_monks(st: v.GameState, members: list[str]) -> MassDraw | None:
    monks = draw_count(st) - len(members)
    if monks < 0:
        return None
    return MassDraw(tuple(sorted(members + [MONK] * monks)))


def _draws_by_colour(st: v.GameState, in_bag: list[str], seen: ByColour,
                     before: RegionValue) -> list[MassDraw]:
    """The draws a colour count of church window 1 allows: for each colour, as many of
    the bag's figures of that colour as came, in every choice of generations (one member
    per signature chosen, the lowest letter, so each choice comes once)."""
    now = dict(seen.counts)
    was = dict(ByColour.of(before))
    if any(now.get(c, 0) < n for c, n in was.items()) or now.get("black", 0) != was.get(
            "black", 0):
        return []  # a figure left the window, or a monk stayed: no draw shows that
    choices: list[list[list[str]]] = []
    for colour, n in sorted(now.items()):
        came = n - was.get(colour, 0)
        if came == 0:
            continue
        pool = [m for m in in_bag if colour_of(m) == colour]
        picks: dict[tuple[str, ...], list[str]] = {}
        for c in combinations(pool, came):
            picks.setdefault(tuple(sorted(signature(m) for m in c)), list(c))
        if not picks:
            return []
        choices.append([picks[k] for k in sorted(picks)])
    out: list[MassDraw] = []
    for combo in product(*choices):
        draw = _with_monks(st, [m for part in combo for m in part])
        if draw is not None:
            out.append(draw)
    return out


def _minus(have: RegionValue, less: RegionValue) -> list[str]:
    assert isinstance(have, tuple) and isinstance(less, tuple)
    out = list(have)
    for sig in less:
        if sig in out:
            out.remove(sig)
    return out


class ChanceReader:
    """A ``ChanceFrom`` for the search, reading outcomes from one observation: the legal
    outcome it shows, if any. A fill the bag cannot hold is kept as ``impossible_fill``
    (with ``variants``, the legal fills one misread colour away), to be asked; the fills
    with one cube more (`taken_since`) are tried first, for the search to keep those a
    take explains (``short``)."""

    def __init__(self, observed: Mapping[str, RegionValue]) -> None:
        self.observed = observed
        self.impossible_fill: FillBag | None = None
        self.variants: list[FillBag] = []
        self.short = False  # the fill read may be one cube short: `taken_since` tried

    def __call__(self, st: v.GameState) -> list[Action]:
        if st.phase == "fill_bag":
            fill = fill_from(self.observed)
            if fill is None:
                return []
            if fill_legal(st, fill):
                return [fill]
            self.impossible_fill, self.variants = fill, fill_variants(st, fill)
            taken: list[Action] = [*taken_since(st, fill)]
            if taken:  # perhaps a cube taken before the fill was seen (``short``)
                self.short = True
            return taken
        if st.phase == "mass_draw":
            return [d for d in draw_from(st, self.observed) if v.is_legal(st, d)]
        return []


def layout_of(fill: FillBag) -> dict[str, RegionValue]:
    """The action spaces' cube regions as ``fill`` lays them out."""
    out: dict[str, RegionValue] = {zones.space(s): (0,) * len(CUBE_ORDER) for s in Space}
    for space, cubes in fill.spaces:
        counts = dict(cubes)
        out[zones.space(space)] = tuple(counts.get(c, 0) for c in CUBE_ORDER)
    return out


__all__ = ["ChanceReader", "draw_from", "fill_change_words", "fill_from", "fill_question",
           "fill_variants", "layout_of", "taken_since"]
