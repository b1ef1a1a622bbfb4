"""What the reconciler weighs beside the search: the steps no sensor sees, readings one
misread away, the paths a burst of taps allows, and differences said in words."""

from __future__ import annotations

from typing import Any

from companion import village as v
from companion.village import zones
from companion.village.actions import Buyout
from companion.village.picture import CUBE_ORDER, ITEM_ORDER, RegionValue, regions_of
from companion.village.vocabulary import MemberId

from .asking import words as _path_words
from .observations import FIGURE_COLOURS
from .observed import ByColour, WithUnknown, colour_of
from .outcomes import (
    JSON,
    Discrepancy,
)
from .search import (
    Path,
    PathCache,
    fits_taps,
    member_signatures,
)

UNSEEN = frozenset({"skip", "pass", "done"})  # steps no sensor sees
MAX_FILL_VARIANTS = 24  # legal fills one misread colour away, tried for an impossible read
# regions the camera reads by counting or by a cell: one off is a misread (the farms'
# goods too: the vision bench's items row is its weakest, 91.67 % on real-table renders;
# a horse read as an ox, seed 1 heavy)
_MISREADABLE = (zones.SPACE + ":", zones.SUPPLY + ":", zones.TIME + ":", zones.PRESTIGE + ":",
                zones.GOODS + ":")


def _one_off(value: RegionValue) -> list[RegionValue]:
    """The readings one misread from ``value``: a marker a cell off, a colour's count one
    off (cubes, or figures counted by colour), one cube read as another colour (the
    simulated camera's misreads, docs/sensing.md; `misreads.one_misread` is the test)."""
    if isinstance(value, int):
        return [value + d for d in (-1, 1) if value + d >= 0]
    if isinstance(value, ByColour):  # a camera's figures: one of a colour missed or doubled
        counts = dict(value.counts)
        return [ByColour({**counts, c: counts.get(c, 0) + d})
                for c in FIGURE_COLOURS for d in (-1, 1) if counts.get(c, 0) + d >= 0]
    out: list[RegionValue] = []
    if all(isinstance(x, int) for x in value):
        for i in range(len(value)):
            for d in (-1, 1):
                n = int(value[i]) + d
                if n >= 0:
                    out.append((*value[:i], n, *value[i + 1:]))
        for i in range(len(value)):  # a cube of colour i read as colour j
            for j in range(len(value)):
                if i != j and int(value[i]) > 0:
                    swap = [int(x) for x in value]
                    swap[i] -= 1
                    swap[j] += 1
                    out.append(tuple(swap))
    return out


TRACELESS = frozenset({"well", "free"})  # unseen when no region observed changed


def signature_of(piece: str) -> str:
    """A tapped piece's signature (``red-2`` for ``red-2a``)."""
    return piece[:-1]


def _about_taps(d: Discrepancy) -> bool:
    return bool(d.items) and d.items[0]["region"] == "pad"


def _only_pieces(base: dict[str, RegionValue], observed: dict[str, RegionValue]) -> bool:
    """True when every difference is in a piece zone (a tag reader's drop-out looks like a
    figure gone): the table may not have changed at all."""
    diff = [k for k, val in observed.items() if k in base and base[k] != val]
    return all(zones.split(k)[0] in zones.PIECE_ZONE_KINDS for k in diff)


def _tap_paths(st: v.GameState, taps: list[str],
               observed: dict[str, RegionValue]) -> list[tuple[int, Path]]:
    """Paths (with the number of taps each uses) answering the taps: a decision naming the
    tapped members now, or after one step nobody sees (a skip, or any step that changes
    no region observed: the first-player token where no sensor sees it)."""
    out: list[tuple[int, Path]] = []
    starts: list[tuple[Path, v.GameState]] = [((), st)]
    before = regions_of(st)
    for a in v.legal_actions(st):
        if member_signatures(a):
            continue
        after = v.apply_unchecked(st, a)
        if a.type in UNSEEN:
            starts.append(((a,), after))
            continue
        now = regions_of(after)
        if all(now.get(k) == before.get(k) for k in observed):
            starts.append(((a,), after))
    for prefix, s in starts:
        if s.phase == "over":
            continue
        options = [a for a in v.legal_actions(s) if member_signatures(a)]
        if any(isinstance(a, Buyout) for a in options):
            out += [(len(taps), (*prefix, a)) for a in options
                    if isinstance(a, Buyout) and len(a.members) == len(taps)
                    and fits_taps(s, (a,), taps)]
            continue
        # one member: the first tap, or another figure tapped just after it (the wrong
        # figure tapped first, then the right one): then both are asked
        firsts = [taps[0]] + [p for p in taps[1:] if _figure(s, p) != _figure(s, taps[0])]
        for k, piece in enumerate(dict.fromkeys(firsts)):
            out += [(1 if k == 0 else len(taps), (*prefix, a)) for a in options
                    if fits_taps(s, (a,), [piece])]
    return out


def _tap_may_come_late(st: v.GameState, taps: list[str]) -> bool:
    """True when a single tapped figure could also answer a decision that comes after
    another one naming a figure nobody tapped (Yellow 2a trains, then Yellow 1a, tapped,
    dies): that figure's tap may still come, late, behind the tap of the decision after
    it (the behaviour model's late taps: docs/sensing.md)."""
    if len(taps) != 1:  # the other figure's tap is in already (or a wrong one first)
        return False
    for a in v.legal_actions(st):
        if not member_signatures(a) or fits_taps(st, (a,), taps):
            continue
        after = v.apply_unchecked(st, a)
        if after.phase != "over" and any(
                member_signatures(b) and fits_taps(after, (b,), taps)
                for b in v.legal_actions(after)):
            return True
    return False


def _minus(have: tuple[Any, ...], less: tuple[Any, ...]) -> list[Any]:
    out = list(have)
    for x in less:
        if x in out:
            out.remove(x)
    return out


def _figure(st: v.GameState, piece: str) -> tuple[str, object]:
    return piece[:-1], st.members.get(MemberId(piece))  # None: not a member


def _fingerprint(st: v.GameState) -> int:
    return hash((tuple(sorted(regions_of(st).items())), repr(v.pending(st))))


def _continues(cache: PathCache, matches: list[Path]) -> bool:
    """True when some candidate leaves its player still to act (the well: the action of
    the space chosen follows), so the next move will tell the candidates apart."""
    for m in matches:
        actor = getattr(m[-1], "player", None)
        if actor is not None and v.pending(cache.state(m)).player == actor:
            return True
    return False


def _words(st: v.GameState, actions: list[JSON]) -> str:
    """What a sequence of actions does, in the narration's public words."""
    return _path_words(st, actions)


def _source(observations: list[JSON], prompted: bool) -> str:
    if prompted:
        return "tablet"
    sources = {str(o.get("source", "")) for o in observations}
    if any(s.startswith("camera") or s == "sim:camera" for s in sources):
        return "camera"
    return "tag_reader"


def _thing(value: Any) -> str:
    """A figure (member id, monk) in words; anything else as text."""
    return zones.piece_words(value) if isinstance(value, str) else str(value)


def _count(n: int, name: str) -> str:
    """``_count(1, "brown")`` → ``"1 brown cube"``; goods and grain keep their own name."""
    if name in {c.value for c in CUBE_ORDER}:
        return f"{n} {name} cube{'' if n == 1 else 's'}"
    return f"{n} {name}"


def _difference(region: str, expected: RegionValue, seen: RegionValue) -> JSON:
    """One line of a discrepancy, naming the pieces or cubes that differ."""
    place = zones.place_words(region)
    if isinstance(expected, int) or isinstance(seen, int):
        what = f"{place}: the marker should be on {expected}, it is seen on {seen}"
        return {"region": region, "what": what, "expected": expected, "seen": seen}
    if len(expected) == len(seen) == len(CUBE_ORDER) and all(
        isinstance(x, int) for x in (*expected, *seen)
    ):
        names: tuple[str, ...] = tuple(c.value for c in CUBE_ORDER)
    elif len(expected) == len(seen) == len(ITEM_ORDER) and all(
        isinstance(x, int) for x in (*expected, *seen)
    ):
        names = ITEM_ORDER
    else:
        unknown = seen.unknown if isinstance(seen, WithUnknown) else 0
        if isinstance(seen, ByColour):  # a camera's count by colour: compare colours
            expected = tuple(colour_of(s) for s in expected)
        missing = list(expected)
        extra: list[Any] = []
        for s in seen:
            if s in missing:
                missing.remove(s)
            else:
                extra.append(s)
        parts = [f"{', '.join(map(_thing, missing))} missing"] if missing else []
        parts += [f"{', '.join(map(_thing, extra))} not expected"] if extra else []
        if unknown:  # tags nobody enrolled: figures, but which is not known
            missing = missing[unknown:]
            parts = ([f"{', '.join(map(_thing, missing))} missing"] if missing else []) + (
                [f"{', '.join(map(_thing, extra))} not expected"] if extra else [])
            parts.append(f"{unknown} tag{'s' if unknown > 1 else ''} nobody enrolled")
        return {"region": region, "what": f"{place}: {'; '.join(parts)}",
                "expected": list(expected), "seen": list(seen)}
    diffs = [f"{_count(e, n)} expected, {s} seen"
             for n, e, s in zip(names, expected, seen, strict=True) if e != s]
    return {"region": region, "what": f"{place}: {', '.join(diffs)}",
            "expected": dict(zip(names, expected, strict=True)),
            "seen": dict(zip(names, seen, strict=True))}


def _conflict_key(region: str, values: dict[str, RegionValue]) -> Any:
    """A disagreement as asked: the region and what each source read there."""
    return region, tuple(sorted((src, repr(val)) for src, val in values.items()))


def _shared_tail(paths: list[list[JSON]]) -> int:
    """How many last steps every one of several paths ends with (0 for one path)."""
    if len(paths) < 2:
        return 0
    n = 0
    while all(len(q) > n + 1 for q in paths) and all(
            q[-1 - n] == paths[0][-1 - n] for q in paths):
        n += 1
    return n
