"""What the sensors saw, in words for the play page (issue 18 item 8)."""

from __future__ import annotations

from companion.reconcile.observations import (
    CubeCounts,
    FigureCounts,
    Health,
    ItemCounts,
    MarkerCell,
    Occluded,
    PiecesGone,
    PiecesSeen,
    TagTapped,
)
from companion.reconcile.seen_words import seen_words


def test_each_reading_in_words_with_its_device_and_place() -> None:
    said = [
        seen_words(PiecesSeen("sim:hub", 0, zone="council:1", pieces=frozenset({"red-2a"}))),
        seen_words(PiecesGone("hub:1/reader:3", 0, zone="farm:blue",
                              pieces=frozenset({"blue-1a"}), unknown_uids=frozenset({"04AA"}))),
        seen_words(CubeCounts("camera:0", 0, region="space:market", counts={"green": 2, "pink": 1})),
        seen_words(ItemCounts("camera:0", 0, region="goods:red", counts={"ox": 2, "coin": 1})),
        seen_words(FigureCounts("camera:0", 0, zone="church:2", counts={"black": 2})),
        seen_words(MarkerCell("camera:0", 0, track="time:red", marker="red", cell=4)),
        seen_words(TagTapped("pad:ACS ACR122U", 0, reader="r", uid="04A2", piece=None)),
        seen_words(Occluded("camera:0", 0, regions=frozenset({"space:harvest"}))),
    ]
    assert said == [
        "Reader hub (simulated): Red 2a put on council level 1",
        "Reader hub: Blue 1a, 1 unknown tag taken from Blue's farm",
        "Camera: on the Market space, 2 green cubes, 1 pink cube",
        "Camera: on Red's goods, 1 coin, 2 oxen",
        "Camera: on church window 2, 2 black figures",
        "Camera: Red's marker on Red's time track, space 4",
        "Tag pad: an unknown tag tapped",
        "Camera: cannot see the Harvest space (a hand over the board?)",
    ]


def test_health_and_an_ended_occlusion_are_not_readings() -> None:
    assert seen_words(Health("camera:0", 0, device="camera:0", state="up")) is None
    assert seen_words(Occluded("camera:0", 0, regions=frozenset())) is None
