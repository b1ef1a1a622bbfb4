"""Virtual bags: verifiable, reproducible draws that the engine accepts."""

from __future__ import annotations

import hashlib
from collections import Counter

from companion import village as v
from companion.bags import Commitment, draw, draw_action, seed_digest


def _at_fill() -> v.GameState:
    st = v.new_game(["red", "blue", "white"])
    spec = v.chance_spec(st)
    assert spec is not None and spec.kind == "reveal_customers"
    return v.apply(st, draw_action(spec, "setup"))


def test_commitment_is_the_sha256_of_the_seed() -> None:
    c = Commitment.new()
    assert c.digest == hashlib.sha256(c.seed.encode()).hexdigest() == seed_digest(c.seed)
    assert Commitment.new().seed != c.seed


def test_the_same_seed_redraws_the_same_cubes_and_another_seed_differs() -> None:
    st = _at_fill()
    spec = v.chance_spec(st)
    assert spec is not None and spec.kind == "fill_bag"
    assert draw(spec, "abc") == draw(spec, "abc")
    assert any(draw(spec, "abc") != draw(spec, f"other{i}") for i in range(5))


def test_a_virtual_fill_is_accepted_and_puts_the_card_on_each_space() -> None:
    st = _at_fill()
    spec = v.chance_spec(st)
    assert spec is not None
    after = v.apply(st, draw_action(spec, 42))
    card = after.data.space_cubes[3]
    assert {s: sum(c.values()) for s, c in after.spaces.items()} == card
    drawn = Counter(
        c.value for cubes in after.spaces.values() for c, n in cubes.items() for _ in range(n)
    )
    assert drawn <= Counter(spec.contents)


def test_virtual_draws_stay_fair_over_many_seeds() -> None:
    st = _at_fill()
    spec = v.chance_spec(st)
    assert spec is not None
    share = Counter(x for s in range(400) for x in draw(spec, s))
    expected = Counter(spec.contents)
    total_drawn = sum(share.values())
    for piece, n in expected.items():
        want = total_drawn * n / len(spec.contents)
        assert abs(share[piece] - want) < 0.15 * want + 10, (piece, share[piece], want)


def test_the_state_remembers_this_rounds_draw_for_placing_the_cubes() -> None:
    st = _at_fill()
    spec = v.chance_spec(st)
    assert spec is not None
    action = draw_action(spec, 7)
    after = v.apply(st, action)
    want = {s: c for s, c in action["spaces"].items() if c}
    assert v.summary(after)["board"]["round_fill"] == want
    # taking a cube changes the spaces, not the record of the draw
    take = next(a for a in v.legal_actions(after) if a.type == "take")
    assert v.summary(v.apply(after, take))["board"]["round_fill"] == want
