"""`companion.table.sealed.SealedReports` alone: shares whose values may repeat (Colonia's
materials) are no clash; a deal refused as a whole asks every player again."""

from __future__ import annotations

from companion.games.hand_reports import SealedShare
from companion.table.sealed import CHECK_AGAIN, CHECK_ALL_AGAIN, SealedReports

WHO = ("red", "blue")


def test_equal_tiles_clash_but_equal_repeatable_values_do_not() -> None:
    tiles = SealedReports()
    for c in WHO:
        tiles.seal(SealedShare("silver", "deal_silver", WHO, "writer"), c)
    opened = tiles.open()
    assert opened.shares is None and opened.check_again == WHO[::-1]
    assert tiles.private("red")["check_again"] == CHECK_AGAIN
    pairs = SealedReports()
    for c in WHO:
        pairs.seal(SealedShare("materials", "m", WHO, "iron,wood", distinct=False), c)
    assert pairs.complete(WHO)
    opened = pairs.open()
    assert opened.shares == {"blue": "iron,wood", "red": "iron,wood"}
    assert pairs.tier is None  # nothing kept once dealt


def test_a_refused_deal_asks_everyone_again_and_keeps_no_share() -> None:
    reports = SealedReports()
    share = SealedShare("materials", "m", WHO, "fur,fur", distinct=False)
    for c in WHO:
        reports.seal(share, c)
    opened = reports.open()
    assert opened.shares is not None
    reports.refused(share, tuple(opened.shares))
    assert reports.public() == {"tier": "materials", "reported": [], "check_again": list(WHO[::-1])}
    assert all(reports.private(c) == {"tier": "materials", "sealed": None,
                                      "check_again": CHECK_ALL_AGAIN} for c in WHO)
    reports.seal(SealedShare("materials", "m", WHO, "iron,fur", distinct=False), "red")
    assert reports.private("red")["check_again"] is None and not reports.complete(WHO)
