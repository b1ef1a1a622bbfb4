"""The reconciler: settling, slides and hands never committed, batched actions, knocked
cubes, prompts and the tap pad answering pending decisions."""

from __future__ import annotations

from typing import Any

import pytest
from reconcile_kit import game_states, run

from companion import village as v
from companion.reconcile.observations import (
    CubeCounts,
    Observation,
    Occluded,
    PiecesGone,
    PiecesSeen,
    TagTapped,
    ZoneSnapshot,
)
from companion.reconcile.reconciler import Discrepancy, Prompt, Proposal, Reconciler
from companion.sim.link import equivalent
from companion.sim.memory_link import MemoryLink
from companion.village.picture import CUBE_ORDER, picture


def cubes(st: v.GameState, region: str, t: float) -> CubeCounts:
    counts = picture(st).cubes[region]
    return CubeCounts("camera:0", t, region=region, counts=dict(counts))


def camera(st: v.GameState, t: float) -> list[Observation]:
    """A camera frame of the action spaces, the supplies and the farms' figures."""
    p = picture(st)
    out: list[Observation] = [cubes(st, r, t) for r in p.cubes if r.startswith(("space:", "supply:"))]
    out += [ZoneSnapshot("camera:0", t, zone=z, pieces=ms) for z, ms in p.pieces.items()
            if z.startswith(("farm:", "craft:", "council:", "church:", "chronicle:", "travel:"))]
    return out


def feed(rec: Reconciler, obs: list[Observation]) -> None:
    for o in obs:
        rec.observe(o)



def first_take(situations: dict[str, Any]) -> tuple[v.GameState, dict[str, Any]]:
    return situations["take"][0]


def test_a_take_is_submitted_with_the_observations_that_led_to_it(situations: dict) -> None:
    st, take = first_take(situations)
    link = MemoryLink(st)
    rec = Reconciler(link)
    feed(rec, camera(st, 0.0))
    assert run(rec, 0.0, 1.0) == [] and link.submitted == []
    feed(rec, camera(v.apply(st, take), 2.0))
    out = run(rec, 2.0, 3.0)
    assert [type(o) for o in out] == [Proposal]
    assert link.submitted[0][0] == take and link.submitted[0][1] == "camera"
    assert any(o["kind"] == "cubes" for o in link.submitted[0][2])
    assert "takes a" in out[0].words


def test_a_slide_across_a_reader_is_never_committed(situations: dict) -> None:
    st, _ = first_take(situations)
    link = MemoryLink(st)
    rec = Reconciler(link, settle=0.5)
    farm = next(z for z in picture(st).pieces if z.startswith("council:"))
    rec.observe(ZoneSnapshot("hub:1/reader:3", 0.0, zone=farm, pieces=picture(st).pieces[farm]))
    run(rec, 0.0, 1.0)
    someone = next(iter(picture(st).pieces[f"farm:{st.players[0].value}"]))
    rec.observe(PiecesSeen("hub:1/reader:3", 1.1, zone=farm, pieces=frozenset({someone})))
    rec.observe(PiecesGone("hub:1/reader:3", 1.4, zone=farm, pieces=frozenset({someone})))
    assert run(rec, 1.1, 4.0) == [] and link.submitted == []


def test_a_hand_over_the_table_holds_things_up(situations: dict) -> None:
    st, take = first_take(situations)
    link = MemoryLink(st)
    rec = Reconciler(link)
    feed(rec, camera(st, 0.0))
    run(rec, 0.0, 1.0)
    rec.observe(Occluded("camera:0", 1.5, regions=frozenset({f"space:{take['space']}"})))
    feed(rec, camera(v.apply(st, take), 1.6))
    assert run(rec, 1.6, 4.0) == [] and link.submitted == []  # the hand stays: no guess
    rec.observe(Occluded("camera:0", 4.1))
    assert [type(o) for o in run(rec, 4.1, 5.0)] == [Proposal]


def test_a_cube_knocked_off_gives_a_discrepancy_then_closes(situations: dict) -> None:
    st, _ = first_take(situations)
    link = MemoryLink(st)
    rec = Reconciler(link)
    feed(rec, camera(st, 0.0))
    run(rec, 0.0, 1.0)
    region = next(r for r, c in picture(st).cubes.items() if r.startswith("space:") and any(c.values()))
    counts = dict(picture(st).cubes[region])
    colour = next(c for c in counts if counts[c])
    counts[colour] -= 1
    rec.observe(CubeCounts("camera:0", 1.2, region=region, counts=counts))
    assert run(rec, 1.2, 4.1) == []  # waits out a transient (a shadow, a hand) first
    out = run(rec, 4.2, 4.5)
    assert [type(o) for o in out] == [Discrepancy] and link.submitted == []
    item = out[0].items[0]
    assert item["region"] == region and colour in item["what"]
    # in words for the table: "the Harvest space: 1 brown cube expected, 0 seen"
    space = region.split(":")[1].capitalize()
    n = item["expected"][colour]
    assert item["what"] == (f"the {space} space: {n} {colour} cube{'' if n == 1 else 's'} "
                            f"expected, {n - 1} seen")
    assert item["expected"][colour] == item["seen"][colour] + 1
    assert rec.open()[0]["kind"] == "discrepancy"
    rec.observe(cubes(st, region, 5.0))  # the cube is put back
    closed = run(rec, 5.0, 6.0)
    assert [o.kind for o in closed] == ["closed"] and rec.open() == []


def test_i_will_fix_the_board_closes_it(situations: dict) -> None:
    st, _ = first_take(situations)
    rec = Reconciler(MemoryLink(st))
    feed(rec, camera(st, 0.0))
    run(rec, 0.0, 1.0)
    region = next(r for r, c in picture(st).cubes.items() if r.startswith("space:") and any(c.values()))
    rec.observe(CubeCounts("camera:0", 1.2, region=region, counts={}))
    d = run(rec, 1.2, 4.5)[0]
    assert isinstance(d, Discrepancy)
    assert [o.kind for o in rec.fix_board(d.id)] == ["closed"]
    assert run(rec, 4.6, 8.0) == []  # the same difference is not raised again


def test_two_actions_before_the_sensors_settle(situations: dict) -> None:
    pairs = game_states(7)
    i = next(i for i in range(40, len(pairs) - 1)
             if pairs[i][1]["type"] == pairs[i + 1][1]["type"] == "take")
    (st, a), b = pairs[i], pairs[i + 1][1]
    link = MemoryLink(st)
    rec = Reconciler(link)
    feed(rec, camera(st, 0.0))
    run(rec, 0.0, 1.0)
    feed(rec, camera(v.apply(v.apply(st, a), b), 1.1))
    out = run(rec, 1.1, 2.5)
    assert len(out) == 1 and out[0].actions == [a, b]
    assert [s[0] for s in link.submitted] == [a, b]


def test_a_prompt_holds_every_candidate_and_an_answer_submits_it(situations: dict) -> None:
    for st, well in situations["well"]:
        link = MemoryLink(st)
        rec = Reconciler(link, ask_after=3.0)
        feed(rec, camera(st, 0.0))
        run(rec, 0.0, 1.0)
        feed(rec, camera(v.apply(st, well), 1.1))
        out = run(rec, 1.1, 6.0)
        prompts = [o for o in out if isinstance(o, Prompt)]
        if not prompts:
            continue
        p = prompts[0]
        assert len(p.candidates) > 1 and [well] in p.candidates
        assert rec.open()[0]["kind"] == "prompt"
        k = p.candidates.index([well])
        answered = rec.answer(p.id, k)
        assert link.submitted[0][0] == well and link.submitted[0][1] == "tablet"
        assert [o.kind for o in answered] == ["closed", "proposal"] and rec.open() == []
        return
    pytest.fail("no well was ambiguous")


@pytest.mark.parametrize("kind", ["die", "buyout", "train", "travel", "church"])
def test_the_tap_pad_answers_a_pending_decision(kind: str, situations: dict) -> None:
    tried = 0
    for st, truth in situations[kind]:
        members = truth.get("members") or ([truth["member"]] if "member" in truth else [])
        if not members:
            continue
        tried += 1
        link = MemoryLink(st)
        rec = Reconciler(link)
        for i, m in enumerate(members):
            rec.observe(TagTapped("pad:0", 1.0 + i * 0.1, reader="0", uid="04AA", piece=m))
        # a lone tap that could follow another figure's decision waits for a late tap of
        # that one (`Reconciler.late_first_tap`, 6 s)
        out = run(rec, 1.0, 8.0)
        assert len(out) == 1, out
        o = out[0]
        if isinstance(o, Proposal):
            assert equivalent(st, o.actions[0], truth)
        else:
            assert isinstance(o, Prompt) and kind in ("train", "travel", "church")
            assert any(len(c) == 1 and equivalent(st, c[0], truth) for c in o.candidates)
            # the tapped figure's decision now, or after a step no sensor saw (a prompt
            # asking about a first step stands for the whole paths)
            whole = [p for paths in o.stands_for for p in paths]
            assert whole and all(p[-1].member[:-1] == members[0][:-1] for p in whole)
    assert tried


def test_cube_order_is_the_contract_order() -> None:
    assert [c.value for c in CUBE_ORDER] == ["brown", "pink", "orange", "green", "plague"]
