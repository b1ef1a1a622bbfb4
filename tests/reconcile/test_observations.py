"""The observation contract: every kind round-trips through its JSON form; bad JSON is
refused with a message naming the problem."""

from __future__ import annotations

import json

import pytest

from companion.reconcile import observations as o

EXAMPLES = [
    o.TagTapped("pad:ACR122U", 1.5, reader="ACR122U 00 00", uid="04A2B3C4D5E680", piece="red-1a"),
    o.TagTapped("pad:ACR122U", 1.6, reader="ACR122U 00 00", uid="DEADBEEF"),
    o.PiecesSeen("hub:1/reader:2", 2.0, zone="farm:red", pieces=frozenset({"red-1a", "red-1b"})),
    o.PiecesGone("hub:1/reader:2", 2.5, zone="farm:red", pieces=frozenset({"red-1b"}),
                 unknown_uids=frozenset({"0011AABB"})),
    o.ZoneSnapshot("sim:hub", 3.0, zone="council:2", pieces=frozenset({"blue-2a"})),
    o.CubeCounts("camera:0", 3.1, region="space:market", counts={"green": 2, "plague": 1}),
    o.ItemCounts("camera:0", 3.15, region="goods:red", counts={"grain": 2, "wagon": 1}),
    o.FigureCounts("camera:0", 3.17, zone="council:2", counts={"red": 2, "black": 1}),
    o.MarkerCell("camera:0", 3.2, track="time:red", marker="red", cell=7),
    o.Occluded("camera:0", 3.3, regions=frozenset({"space:harvest", "farm:red"})),
    o.Health("hub:1", 4.0, device="hub:1", state="up", reads_per_s=40.0, errors=2),
]


@pytest.mark.parametrize("obs", EXAMPLES, ids=lambda x: x.kind)
def test_round_trip_through_json_text(obs: o.Observation) -> None:
    wire = json.loads(json.dumps(o.to_json(obs)))
    assert wire["kind"] == obs.kind
    assert o.from_json(wire) == obs


@pytest.mark.parametrize(
    ("wire", "says"),
    [
        ({"kind": "teleported", "source": "x", "t": 1}, "unknown observation kind"),
        ({"kind": "seen", "source": "x", "t": 1, "zone": "farm:red", "pieces": "red-1a"},
         "list of strings"),
        ({"kind": "cubes", "source": "x", "t": 1, "region": "space:harvest",
          "counts": {"purple": 1}}, "counts"),
        ({"kind": "items", "source": "x", "t": 1, "region": "goods:red",
          "counts": {"brown": 1}}, "counts"),
        ({"kind": "marker", "source": "x", "t": 1, "track": "prestige", "marker": "red",
          "cell": 1, "colour": "red"}, "unknown fields"),
        ({"kind": "tapped", "source": "x", "t": 1, "reader": "r"}, "uid"),
        ({"kind": "tapped", "source": 5, "t": 1, "reader": "r", "uid": "AA"}, "source"),
        ([1, 2], "JSON object"),
    ],
)
def test_bad_json_is_refused_with_the_reason(wire: object, says: str) -> None:
    with pytest.raises(o.ObservationError, match=says):
        o.from_json(wire)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("space:market", "the Market space"),
        ("supply:red", "Red's cubes"),
        ("farm:blue", "Blue's farm"),
        ("council:2", "council level 2"),
        ("church:1", "church window 1"),
        ("craft:smithy", "the smithy"),
        ("time:white", "White's time track"),
        ("bag", "the black bag"),
        ("prestige", "the prestige track"),
        ("chronicle:travel", "the chronicle (travel)"),
        ("nowhere:7", "nowhere:7"),
    ],
)
def test_places_in_words(name: str, words: str) -> None:
    from companion.village.zones import place_words

    assert place_words(name) == words


def test_pieces_in_words() -> None:
    from companion.village.zones import piece_words

    assert piece_words("red-1a") == "Red 1a"
    assert piece_words("monk-3") == "a black monk"


def test_every_place_the_table_picture_names_reads_as_plain_words() -> None:
    """What a prompt's "Changed:" line shows (CI, 2026-11-27: "first_player:home,
    first_player:red" on the play page of the sensing demo): every region of a game's
    picture, in plain words, with no vocabulary name left in it."""
    import random
    import re

    import companion.village as v
    from companion.sim.play_styles import random_truth
    from companion.village.picture import regions_of
    from companion.village.zones import place_words

    header, truth = random_truth(4, random.Random(2))
    st = v.start(header)
    names: set[str] = set()
    for action in truth[:120]:
        names |= set(regions_of(st))
        st = v.apply(st, action)
    assert any(n.startswith("first_player:") for n in names)
    raw = re.compile(r"[:_]|^[a-z]+$")
    plain = {n: place_words(n) for n in names}
    assert not [w for w in plain.values() if raw.search(w)], plain
