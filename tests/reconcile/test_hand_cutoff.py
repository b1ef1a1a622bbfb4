"""The hands kept across a commit made from a prompt's answer (twelfth session).

The hands the camera saw since the last commit vouch for a move (`misreads._hands_saw`):
a take from a space whose old misread it made true is applied when a hand was over that
space. The hands were forgotten at every commit, the answer to a prompt included, so a
next move whose hand came while the prompt waited lost its hand when the answer came
(seed 1, hub+camera, game 1, action 196: the answer about the mass made 0.6 s after
Yellow's hand took a cube from the harvest space, the take then asked for want of a
hand). The moves a prompt asks about had all been read when the look that raised it was
made; a hand seen after the last reading that look saw belongs to a later move, and is
kept for that move's commit. A hand seen before it belongs to the answered move and is
forgotten with it."""

from __future__ import annotations

from typing import Any

from reconcile_kit import run, takes_then_still_space
from test_misread_back import product_frame

from companion import village as v
from companion.reconcile.observations import CubeCounts, Observation, Occluded
from companion.reconcile.reconciler import Prompt, Reconciler
from companion.sim.memory_link import MemoryLink
from companion.village.picture import picture


def _frame(st: v.GameState, t: float, s: str, short: dict[str, int]) -> list[Observation]:
    """The product camera's frame of ``st`` with space ``s`` read as ``short``."""
    return [CubeCounts("camera:0", t, region=s, counts=short)
            if isinstance(o, CubeCounts) and o.region == s else o
            for o in product_frame(st, t)]


def _a_birth_then_a_take_from_a_doubted_space(
        ) -> tuple[list[tuple[v.GameState, dict[str, Any]]], int, int, dict[str, Any]]:
    """From a seeded game: a take of colour c from space S leaving a cube of c (index i),
    S unchanged until a player may give birth or recall (index j), and after the birth
    the next player may take c from S. Returns the game's states, i, j and that take."""
    for states, i, take, here, j in takes_then_still_space(15):
        if not here.get(take["cube"], 0):
            continue
        st_j, a = states[j]
        acts = v.legal_actions(st_j)
        birth = next((x for x in acts if x.type == "birth"), None)
        if a["type"] not in ("birth", "recall") or birth is None or not any(
                x.type == "recall" for x in acts):
            continue
        nxt = next((x for x in v.legal_actions(v.apply(st_j, birth))
                    if x.type == "take" and x.space == take["space"]
                    and x.cube == take["cube"]), None)
        if nxt is not None:
            return states, i, j, nxt.to_json()
    raise AssertionError("no such game in the seeded games")


def _play(hand_at: float) -> tuple[MemoryLink, list[Any], dict[str, Any], str]:
    """S read one cube of c short since the first take (a doubt); the birth seen with no
    hand (asked with a recall); then the next player's take of c from S, its hand over S
    and its supply at ``hand_at``, the prompt answered at 15.65 s, before the take is
    read (15.7 s). Returns the link, what was said after the answer, the take and S."""
    states, i, j, take = _a_birth_then_a_take_from_a_doubted_space()
    st = states[i][0]
    s, colour = f"space:{take['space']}", take["cube"]
    link = MemoryLink(st)
    rec = Reconciler(link)
    for o in product_frame(st, 0.0):
        rec.observe(o)
    run(rec, 0.0, 1.0)
    for _st, a in states[i:j]:  # entered on the tablet
        link.submit(a, "tablet", link.seq(), [])
    mid = link.state()
    short = dict(picture(mid).cubes[s])
    short[colour] -= 1
    for o in _frame(mid, 2.0, s, short):
        rec.observe(o)
    run(rec, 2.0, 8.0)
    assert s in rec.doubted
    birth = next(a for a in v.legal_actions(mid) if a.type == "birth").to_json()
    born = v.apply(mid, birth)
    for o in _frame(born, 9.0, s, short):  # no hand seen: asked with a recall
        rec.observe(o)
    asked = [o for o in run(rec, 9.0, 15.0) if isinstance(o, Prompt)]
    assert asked and rec.prompt is not None, "the birth was not asked"
    prompt = rec.prompt
    pick = next(k for k, c in enumerate(prompt.candidates) if c == [birth])
    hand = [Occluded("camera:0", hand_at, regions=frozenset({s, f"supply:{take['player']}"})),
            Occluded("camera:0", hand_at + 0.6)]
    for o in hand:
        rec.observe(o)
    run(rec, 15.0, 15.6)
    rec.answer(prompt.id, pick)
    assert [a for a, *_ in link.submitted][-1] == birth
    end = v.apply(born, take)
    for o in _frame(end, 15.7, s, short):  # S's old misread is now the truth
        rec.observe(o)
    return link, run(rec, 15.7, 30.0), take, s


def test_a_hand_seen_while_a_prompt_waited_vouches_for_the_next_move() -> None:
    """The take's hand came after the birth was asked: kept at the answer's commit, it
    vouches for the take from the doubted space, applied (before: asked, no hand on
    record)."""
    link, out, take, _s = _play(15.0)
    assert [a for a, *_ in link.submitted][-1] == take, [
        o for o in out if isinstance(o, Prompt)]


def test_a_hand_seen_before_the_prompt_was_raised_is_forgotten_at_the_answer() -> None:
    """The control: the same hand seen before the birth was read (so before the look that
    asked about it) belongs to the answered move and is forgotten with it; the take
    from the doubted space, with no hand of its own, stays asked."""
    link, out, take, _s = _play(8.2)
    assert take not in [a for a, *_ in link.submitted]
    asked = [o for o in out if isinstance(o, Prompt)]
    assert asked and take in [c[0] for c in asked[-1].candidates]
