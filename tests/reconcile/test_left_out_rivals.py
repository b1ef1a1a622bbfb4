"""The rivals of an explanation found with one camera region left out (thirteenth session).

When no path explains the table, each camera region is left out in turn and a path that
explains the rest, one misread away in that region, is the candidate
(`misreads._one_read_wrong`). Its rivals one misread away (another cube's colour, another
gain, another member) were then looked for on the table *without* that region, as if
nothing had been read there: a take of another colour from the same space, needing a
misread of the supply and, in the space left out, a reading three cubes off its value,
was asked beside the take read one cube off (seed 1, camera, game 1, action 46: « Blue
takes … cube from Council? » brown, green, orange; the space read with a pink cube that
was not there). A rival must be one misread from the region left out as well: two
misreads in all, as `_two_misreads_rivals` asks, never three."""

from __future__ import annotations

from collections import Counter
from typing import Any

from reconcile_kit import run
from test_misread_back import product_frame
from under_hand import moved_under_hand, watched

from companion import village as v
from companion.reconcile.observations import CubeCounts
from companion.reconcile.reconciler import Prompt
from companion.sim.memory_link import MemoryLink
from companion.village.picture import CUBE_ORDER, picture


def _a_take_from_a_space_of_two_colours(situations: dict[str, Any],
                                        ) -> tuple[v.GameState, dict[str, Any], str]:
    """A take of colour c from a space holding another colour too (another take was
    possible; neither plague, whose take changes more than the supply), and a third colour z that is not on the space: the space is then read
    with one z more than the take leaves (one cube counted that is not there)."""
    for st, take in situations["take"]:
        cubes = picture(st).cubes[f"space:{take['space']}"]
        others = [c for c, n in cubes.items() if n and c not in (take["cube"], "plague")]
        absent = [c.value for c in CUBE_ORDER if not cubes.get(c.value)]
        if take["cube"] != "plague" and others and absent:
            return st, take, absent[0]
    raise AssertionError("no such take in the situations")


def _play(situations: dict[str, Any], extra: bool) -> tuple[MemoryLink, list[Any],
                                                            dict[str, Any]]:
    """The take, its hand over the space and the supply; the space read with one cube of
    an absent colour more (``extra``), else read right."""
    st, take, z = _a_take_from_a_space_of_two_colours(situations)
    after = v.apply(st, take)
    space, supply = f"space:{take['space']}", f"supply:{take['player']}"
    link, rec = watched(st)
    read = Counter(picture(after).cubes[space])
    if extra:
        read[z] += 1
    frame = [CubeCounts("camera:0", 2.7, region=space, counts=dict(read))
             if isinstance(o, CubeCounts) and o.region == space else o
             for o in product_frame(after, 2.7)]
    moved_under_hand(rec, st, after, frame, hands={space, supply})
    return link, run(rec, 2.0, 15.0), take


def test_a_take_read_one_cube_off_has_no_rival_three_cubes_off_in_that_space(
        situations: dict) -> None:
    """The take's space read with one cube of a colour that is not there: the take is the
    one path one misread away; a take of another colour would need a misread of the
    supply and a reading three cubes off in the space, and is not asked with it (before:
    asked, the space's reading left out of the rival's count)."""
    link, out, take = _play(situations, True)
    asked = [o for o in out if isinstance(o, Prompt)]
    assert [a for a, *_ in link.submitted] == [take], asked


def test_the_same_take_read_right_is_applied(situations: dict) -> None:
    """The control: the space read right, the take applied."""
    link, _out, take = _play(situations, False)
    assert [a for a, *_ in link.submitted] == [take]
