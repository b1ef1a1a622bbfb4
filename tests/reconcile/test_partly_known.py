"""What tag readers do know is used, and only that (issue 15): a zone whose reader holds
a tag nobody enrolled is compared as the figures it knows plus so many unknown ones
(never as unchanged, never dropped), and a black-bag draw read by the readers of the
church's first window and of the bag is vouched for, monks included. Built as
``companion/runtime.py`` builds the reconciler (its defaults); no wrong action ever."""

from __future__ import annotations

from reconcile_kit import run
from test_adversarial import (
    TruthLink,
    feed,
    hub_moves,
    hub_start,
    never_wrong,
    scenario,
    states,
)

from companion.reconcile import observed
from companion.reconcile.observations import Observation, PiecesSeen
from companion.reconcile.observed import ObservedTable
from companion.reconcile.reconciler import Prompt, Proposal, Reconciler
from companion.sim.table import hub_zones
from companion.village import zones
from companion.village.picture import picture

UID = "04A1B2C3D4E5F6"


def unenrolled(obs: list[Observation], piece: str) -> list[Observation]:
    """The same readings with ``piece``'s tag nobody enrolled (its UID, not its id)."""
    out: list[Observation] = []
    for o in obs:
        if isinstance(o, PiecesSeen) and piece in o.pieces:
            o = PiecesSeen(o.source, o.t, zone=o.zone, pieces=o.pieces - {piece},
                           unknown_uids=frozenset({UID}))
        out.append(o)
    return out


def test_a_zone_with_an_unknown_tag_compares_as_its_known_figures_and_a_count() -> None:
    val = observed.WithUnknown(("red-1",), 1)
    assert val == ("red-1", "red-2") and val == ("blue-1", "red-1")
    assert val != ("red-1",) and val != ("red-1", "red-2", "red-3")
    assert val != ("red-2", "red-3")  # red-1 is read there
    t = ObservedTable()
    t.observe(PiecesSeen("hub:1/reader:0", 0.0, zone="farm:red", pieces=frozenset({"red-1a"}),
                         unknown_uids=frozenset({UID})))
    t.tick(1.0)
    assert t.uncertain(1.0) == {"farm:red"}
    assert t.settled(1.0)["farm:red"] == ("red-1", "red-2")


def _birth(newborn_enrolled: bool) -> tuple[list[object], TruthLink]:
    st, truth = scenario(1, 96, 1)  # red's child is born beside Red 1d and Red 2a
    assert truth[0]["type"] == "birth"
    s = states(st, truth)
    farm = zones.farm("red")
    before = sorted(picture(st).pieces[farm])
    link = TruthLink(st, truth)
    rec = Reconciler(link)
    rec.covered = frozenset(hub_zones(st))
    # a figure already on yellow's farm carries a tag nobody enrolled
    feed(rec, unenrolled(hub_start(st, 0.0), before[0]))
    out = run(rec, 0.0, 2.0)
    born = hub_moves(s[0], s[1], 3.0)
    if not newborn_enrolled:
        (child,) = picture(s[1]).pieces[farm] - picture(s[0]).pieces[farm]
        born = [PiecesSeen(o.source, o.t, zone=o.zone, pieces=frozenset(),
                           unknown_uids=frozenset({UID, "04FFEEDDCCBBAA"}))
                if isinstance(o, PiecesSeen) and child in o.pieces else o for o in born]
    feed(rec, born)
    out += run(rec, 3.0, 12.0)
    never_wrong(link)
    return out, link


def test_a_birth_on_a_farm_holding_an_unenrolled_tag_is_applied_from_the_readers() -> None:
    out, link = _birth(newborn_enrolled=True)
    assert not [o for o in out if isinstance(o, Prompt)]
    assert [a["type"] for a, _s, _o in link.submitted] == ["birth"]
    assert any(isinstance(o, Proposal) for o in out)


def test_an_unenrolled_newborn_on_such_a_farm_is_a_figure_more_not_a_skip() -> None:
    """A figure nobody can name came: born, or brought home from a craft building no
    reader covers. Asked, the skip not among the candidates."""
    out, link = _birth(newborn_enrolled=False)
    assert link.submitted == []
    (prompt,) = [o for o in out if isinstance(o, Prompt)]
    kinds = [c[0]["type"] for c in prompt.candidates]
    assert "birth" in kinds and "skip" not in kinds


def test_a_mass_draw_read_in_the_first_window_and_the_bag_is_applied() -> None:
    st, truth = scenario(1, 45, 1)
    assert truth[0]["type"] == "mass_draw" and "monk" in truth[0]["figures"]
    s = states(st, truth)
    link = TruthLink(st, truth)
    rec = Reconciler(link)
    rec.covered = frozenset(hub_zones(st))
    feed(rec, hub_start(st, 0.0))
    out = run(rec, 0.0, 2.0)
    feed(rec, hub_moves(s[0], s[1], 3.0))
    out += run(rec, 3.0, 12.0)
    never_wrong(link)
    assert not [o for o in out if isinstance(o, Prompt)]
    assert [a["type"] for a, _s, _o in link.submitted] == ["mass_draw"]
