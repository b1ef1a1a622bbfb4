"""A newborn's tag on the farm: a figure no reader had ever reported is a newborn, not a
figure brought home from the board (fourteenth session). The bench found it (hub+camera,
seed 1, ordinary, purposeful: 5 prompts): a birth read right everywhere was asked beside a
recall of a figure of the same generation from a workshop, one camera misread away (the
workshop read as still holding it). The farm's reader read the newborn's tag, a tag no
reader had reported before; a figure on the workshop went there from the farm, where the
reader read it. The recall needs that read lost as well as the misread: it is no rival.

Seed 3's random game: Blue 2a trains at the office (action 99), Blue gives birth to Blue 2b
four actions later (action 103) while Blue 2a is still there, so a recall of Blue 2a is
legal at the birth and looks the same on the farm's reader by signature."""

from __future__ import annotations

from reconcile_kit import game_states, run
from test_adversarial import hub_moves, hub_start
from test_hand_vouches import _changed, _hand
from test_misread_back import product_frame

from companion import village as v
from companion.reconcile.reconciler import Prompt, Reconciler
from companion.sim.memory_link import MemoryLink
from companion.sim.table import hub_zones
from companion.village.vocabulary import MemberId

TRAINED, BIRTH = 99, 103


def _states() -> list[tuple[v.GameState, dict]]:
    states = game_states(3)
    assert states[TRAINED][1]["type"] == "train"
    assert states[TRAINED][1]["member"] == "blue-2a"
    assert states[BIRTH][1]["type"] == "birth"
    assert states[BIRTH][0].members[MemberId("blue-2a")][0] == "craft"
    return states


def _watched_from(st: v.GameState) -> tuple[MemoryLink, Reconciler]:
    """A hub+camera reconciler started at ``st``: nothing said by 1 s."""
    link = MemoryLink(st)
    rec = Reconciler(link)
    rec.covered = frozenset(hub_zones(st))
    for o in [*hub_start(st, 0.0), *product_frame(st, 0.0)]:
        rec.observe(o)
    assert run(rec, 0.0, 1.0) == []
    return link, rec


def _caught_up(states: list[tuple[v.GameState, dict]]) -> tuple[MemoryLink, Reconciler]:
    """Watched from before the training; the actions up to the birth entered on the
    tablet and the table read as they left it (Blue 2a read leaving the farm)."""
    link, rec = _watched_from(states[TRAINED][0])
    for _st, a in states[TRAINED:BIRTH]:
        link.submit(a, "tablet", link.seq(), [])
    for o in [*hub_moves(states[TRAINED][0], states[BIRTH][0], 1.5),
              *product_frame(states[BIRTH][0], 2.0)]:
        rec.observe(o)
    out = run(rec, 1.5, 5.0)
    assert not [o for o in out if isinstance(o, Prompt)], out
    return link, rec


def _move(rec: Reconciler, st: v.GameState, after: v.GameState, frame: list) -> list:
    for o in [*_hand(6.0, _changed(st, after)), *hub_moves(st, after, 6.1), *frame]:
        rec.observe(o)
    return run(rec, 6.0, 25.0)


def test_a_birth_whose_tag_no_reader_reported_before_is_applied() -> None:
    states = _states()
    link, rec = _caught_up(states)
    st, birth = states[BIRTH]
    after = v.apply(st, birth)
    n = link.seq()
    out = _move(rec, st, after, product_frame(after, 6.7))
    assert [a for a, *_ in link.submitted[n:]] == [birth], out
    assert not [o for o in out if isinstance(o, Prompt)], out


def test_a_recall_read_as_a_birth_by_the_camera_is_still_asked() -> None:
    """Control: Blue 2a recalled, the office misread as still holding it; the farm's
    reader reads Blue 2a, a tag it reported before: the birth is not applied."""
    states = _states()
    link, rec = _caught_up(states)
    st = states[BIRTH][0]
    recall = next(a for a in v.legal_actions(st)
                  if a.type == "recall" and a.member == "blue-2a").to_json()
    after = v.apply(st, recall)
    n = link.seq()
    out = _move(rec, st, after, product_frame(after, 6.7, as_before=st, region="craft:office"))
    assert link.submitted[n:] == [], [a for a, *_ in link.submitted[n:]]
    prompts = [o for o in out if isinstance(o, Prompt)]
    assert prompts, out
    assert {"birth", "recall"} <= {a["type"] for c in prompts[-1].candidates for a in c}


def test_a_birth_seen_by_a_reconciler_started_after_the_training_is_still_asked() -> None:
    """Control: started with Blue 2a already at the office (a restart mid-game), no
    reader has reported it: the newborn's tag proves nothing, the recall stays a rival."""
    states = _states()
    st, birth = states[BIRTH]
    link, rec = _watched_from(st)
    after = v.apply(st, birth)
    out = _move(rec, st, after, product_frame(after, 6.7))
    assert link.submitted == [], [a for a, *_ in link.submitted]
    prompts = [o for o in out if isinstance(o, Prompt)]
    assert prompts, out
    assert {"birth", "recall"} <= {a["type"] for c in prompts[-1].candidates for a in c}
