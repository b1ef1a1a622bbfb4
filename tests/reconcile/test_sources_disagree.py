"""A tag reader and the camera both see a zone and disagree: the reconciler never picks
one of them silently; it asks on the tablet with what each reading would explain."""

from __future__ import annotations

from typing import Any

from reconcile_kit import run

from companion import village as v
from companion.reconcile.observations import ZoneSnapshot
from companion.reconcile.reconciler import Prompt, Proposal, Reconciler
from companion.sim.memory_link import MemoryLink
from companion.village.picture import picture


def test_reader_and_camera_disagree_on_a_farm(situations: dict[str, Any]) -> None:
    st, birth = situations["birth"][0]
    zone = f"farm:{birth['player']}"
    after = v.apply(st, v.parse_action(birth))
    before_ids, after_ids = picture(st).pieces[zone], picture(after).pieces[zone]
    assert after_ids != before_ids
    link = MemoryLink(st)
    rec = Reconciler(link)
    # both agree on the farm as it is: nothing to do
    rec.observe(ZoneSnapshot("hub:1/reader:0", 0.0, zone=zone, pieces=before_ids))
    rec.observe(ZoneSnapshot("camera:0", 0.0, zone=zone, pieces=before_ids))
    assert not [o for o in run(rec, 0.1, 1.0) if isinstance(o, Proposal)]
    # the reader sees the child, the camera does not: no birth applied on the reader's word
    rec.observe(ZoneSnapshot("hub:1/reader:0", 2.0, zone=zone, pieces=after_ids))
    rec.observe(ZoneSnapshot("camera:0", 2.0, zone=zone, pieces=before_ids))
    outcomes = run(rec, 2.1, 20.0)
    assert not [o for o in outcomes if isinstance(o, Proposal)], outcomes
    assert link.seq() == 0 and link.state() is st
    # ... but a prompt naming the zone and both sources, the reader's explanation offered
    prompts = [o for o in outcomes if isinstance(o, Prompt)]
    assert len(prompts) == 1, outcomes
    assert "Red's farm" in prompts[0].question and "hub:1/reader:0" in prompts[0].question
    assert "camera:0" in prompts[0].question
    assert [birth] in prompts[0].candidates
    # answered on the tablet: the birth is applied
    rec.answer(prompts[0].id, prompts[0].candidates.index([birth]))
    assert link.seq() == 1


def test_sources_that_agree_again_need_no_answer(situations: dict[str, Any]) -> None:
    st, birth = situations["birth"][0]
    zone = f"farm:{birth['player']}"
    after_ids = picture(v.apply(st, v.parse_action(birth))).pieces[zone]
    link = MemoryLink(st)
    rec = Reconciler(link)
    rec.observe(ZoneSnapshot("hub:1/reader:0", 0.0, zone=zone, pieces=after_ids))
    rec.observe(ZoneSnapshot("camera:0", 0.0, zone=zone, pieces=picture(st).pieces[zone]))
    assert [o for o in run(rec, 0.1, 2.0) if isinstance(o, Prompt)]
    # the camera comes round to what the reader saw: the birth is applied, the prompt closed
    rec.observe(ZoneSnapshot("camera:0", 3.0, zone=zone, pieces=after_ids))
    outcomes = run(rec, 3.1, 5.0)
    proposals = [o for o in outcomes if isinstance(o, Proposal)]
    assert proposals and proposals[0].actions == [birth], outcomes
    assert rec.prompt is None


def test_a_disagreement_is_asked_once_not_again_at_every_later_move() -> None:
    """The reader never read the newborn arrive; the camera counts it. Asked once and
    answered; the reader still reads the farm without it, and the next player's take is
    then applied from the camera, not asked as the same disagreement again (seen 11 times
    in one bench game before)."""
    from collections import Counter

    from test_adversarial import hub_start, product_camera, scenario, states

    from companion.reconcile.observations import FigureCounts
    from companion.reconcile.observed import colour_of
    from companion.sim.table import hub_zones

    st, truth = scenario(1, 62, 2)
    assert [a["type"] for a in truth] == ["birth", "take"]
    s = states(st, truth)
    farms = [z for z in hub_zones(st) if z.startswith("farm:")]

    def camera(state: v.GameState, t: float) -> list[Any]:
        p = picture(state)
        return product_camera(state, t) + [
            FigureCounts("camera:0", t, zone=z, counts=dict(Counter(map(colour_of, p.pieces[z]))))
            for z in farms]

    link = MemoryLink(st)
    rec = Reconciler(link)
    rec.covered = frozenset(hub_zones(st))
    for o in sorted(hub_start(st, 0.0) + camera(st, 0.0), key=lambda o: o.t):
        rec.observe(o)
    run(rec, 0.1, 2.0)
    for o in camera(s[1], 3.0):  # the birth: the reader misses the child's arrival
        rec.observe(o)
    out = run(rec, 3.1, 12.0)
    prompts = [o for o in out if isinstance(o, Prompt)]
    assert len(prompts) == 1 and "disagree" in prompts[0].question
    rec.answer(prompts[0].id, prompts[0].candidates.index([truth[0]]))
    assert link.seq() == 1
    for o in camera(s[2], 14.0):  # yellow takes a cube; the reader still misses the child
        rec.observe(o)
    out = run(rec, 14.1, 25.0)
    assert not [o for o in out if isinstance(o, Prompt)], out
    assert link.seq() == 2 and link.state().members == s[2].members
