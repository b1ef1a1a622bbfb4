"""What each shipped game offers beyond the `Game` protocol is found by name."""

from __future__ import annotations

from companion import games
from companion.games.capabilities import KeepsSeenCards, LearnsCards, PhoneSteps, card_types


def test_each_shipped_game_offers_what_it_implements() -> None:
    village, crecy, colonia = games.get("village"), games.get("crecy"), games.get("colonia")
    assert not isinstance(village, LearnsCards) and card_types(village) == {}
    assert not isinstance(village, PhoneSteps)
    assert isinstance(crecy, KeepsSeenCards) and isinstance(crecy, PhoneSteps)
    assert isinstance(colonia, LearnsCards) and not isinstance(colonia, KeepsSeenCards)
    assert not isinstance(colonia, PhoneSteps)
    assert set(card_types(crecy)) and all(k.startswith("crecy.") for k in card_types(crecy))
    assert all(k.startswith("colonia.") for k in card_types(colonia))


def test_a_game_missing_one_phone_method_is_not_taken_for_a_phone_game() -> None:
    class Partial:
        def owns(self, st: object, player: str, action: dict[str, object]) -> bool:
            return True

    assert not isinstance(Partial(), PhoneSteps)
