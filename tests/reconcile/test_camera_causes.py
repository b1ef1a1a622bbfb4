"""The camera game's touches by cause: every touch counted once, prompts put down to
what made them prompts."""

from __future__ import annotations

import pytest

from companion.sim.camera_causes import breakdown, prompt_cause
from companion.sim.camera_game import load_record, play


def test_a_prompt_is_put_down_to_the_guard_that_fired() -> None:
    take = [{"type": "take_cube", "player": "red", "space": "market"}]
    church = [[{"type": "church", "player": "red", "member": "red1"}],
              [{"type": "church", "player": "red", "member": "red2"}]]
    assert prompt_cause("Which was it?", [take, take], {"_misread_rivals"}) == "doubt"
    assert prompt_cause("Which one exactly?", church, set()) == "generation"
    assert prompt_cause("Which one exactly?", church, {"_other_members"}) == "generation"
    assert prompt_cause("Which was it?", [take], {"_unseen"}) == "unseen"
    assert prompt_cause("Which was it?", [[{"type": "fill_bag"}]], set()) == "fill"
    assert prompt_cause("The sensors disagree on x: which was it?", [take], set()) == "disagree"
    assert prompt_cause("Which was it?", [take, take], set()) == "several"


def test_the_breakdown_counts_every_touch_of_the_first_actions() -> None:
    header, truth = load_record("two-players")
    game = play(header, truth[:14])
    c = game.counts
    split = breakdown(game.log)
    assert sum(split["by_cause"].values()) == c.touches
    assert sum(sum(k.values()) for k in split["by_kind"].values()) == c.touches
    assert game.to_json()["touches"] == split


class _Rec:
    """Stands for a reconciler: a search going on for its first three looks, a reading due
    to settle at 0.35 s."""

    def __init__(self) -> None:
        self.looks = 0
        self.table = self

    @property
    def going_on(self) -> bool:
        return self.looks <= 3

    def next_due(self, now: float) -> float | None:
        self.looks += 1
        return 0.35


def test_the_reconciler_is_ticked_between_frames_as_the_runtime_ticks_it() -> None:
    from companion.sim.camera_game import LOOK_S, runtime_ticks

    ticks = list(runtime_ticks(_Rec(), 0.2, 0.6))
    # three looks going on, LOOK_S apart; then every 0.1 s, and just after 0.35 s
    assert ticks[:4] == pytest.approx([0.2, 0.2 + LOOK_S, 0.2 + 2 * LOOK_S, 0.2 + 3 * LOOK_S])
    assert 0.351 in ticks and ticks[-1] < 0.6


def test_the_players_answer_a_prompt_seconds_after_it_is_shown() -> None:
    """docs/sensing.md's behaviour model: 1-4 s, a fifth of them 5-15 s late; before, the
    camera game answered in the tick that asked."""
    header, truth = load_record("two-players")
    game = play(header, truth[:30])
    waits = [w for row in game.log for w in row.get("answered_after", [])]
    assert waits and min(waits) >= 0.5, game.log
    assert len(waits) == game.counts.answers


def test_a_move_draws_anew_only_the_regions_it_changed() -> None:
    """The rendered table: the pieces of a region a move left alone stay where they lay
    (until now every piece on the table was drawn at a new spot after every move)."""
    from companion import village as v
    from companion.sim.camera_game import RenderedTable, changed_regions
    from vision.layout import load

    header, truth = load_record("two-players")
    layout = load()
    st = v.start(header)
    k = next(i for i, a in enumerate(truth) if a["type"] == "take")
    for a in truth[:k]:  # the table before the first take
        st = v.apply(st, a)
    table = RenderedTable(layout, st)
    before = table.view
    st = v.apply(st, truth[k])  # the take: its space, the taker's supply
    table.show(st)
    moved = changed_regions(before, table.view)
    assert 0 < len(moved) < 8, moved
    assert table.scene(table.version, []).placing == dict.fromkeys(moved, 1)


@pytest.fixture(scope="module")
def sixty_actions():  # type: ignore[no-untyped-def]
    """The first 60 actions at the 2.8 s pace (the tablet often taken to enter a move)."""
    header, truth = load_record("two-players")
    return play(header, truth[:60])


def test_the_players_answer_what_the_tablet_asks_before_entering_a_move(
        sixty_actions) -> None:  # type: ignore[no-untyped-def]
    """A player who takes the tablet to enter a move the camera has not explained sees the
    open prompt about it first, and answers it."""
    assert sixty_actions.entered_under_prompt == 0, sixty_actions.to_json()


def test_the_reconciler_looks_again_after_an_answer_before_the_next_entry(
        sixty_actions) -> None:  # type: ignore[no-untyped-def]
    """The runtime ticks the reconciler every 0.1 s: between a prompt answered by a player
    who took the tablet to enter a move and that entry, it applies what the answer lets
    it explain from the camera (the camera game entered it at once, in the same instant)."""
    game = sixty_actions
    assert game.to_json()["applied_after_answer"] >= 1, game.to_json()
    assert game.counts.auto_wrong == 0 and game.final == game.expected


def test_turn_gaps_drawn_from_the_behaviour_models_range() -> None:
    """``turn_gap=(4, 12)``: each turn's stillness drawn from docs/sensing.md's range (a
    constant gap of 4 s is its least, of 12 s its most)."""
    header, truth = load_record("two-players")
    frames = {gap: play(header, truth[:9], turn_gap=gap).frames
              for gap in (4.0, (4.0, 12.0), 12.0)}
    assert frames[4.0] < frames[(4.0, 12.0)] < frames[12.0], frames


def test_a_new_round_after_the_fill_of_the_board_is_a_new_turn() -> None:
    """The fill of the board ends the round: the next move starts a turn (the table still
    for the turn gap before it) even when its player made the round's last move."""
    from companion.sim.camera_game import turn_starts

    _header, truth = load_record("two-players")
    starts = turn_starts(truth)
    k = next(i for i in range(1, len(truth) - 1) if truth[i]["type"] == "fill_bag"
             and truth[i + 1].get("player") == truth[i - 2].get("player"))
    assert starts[k + 1]
    # a player's second step in a turn is no new turn
    i = next(i for i in range(1, len(truth)) if truth[i].get("player") is not None
             and truth[i].get("player") == truth[i - 1].get("player"))
    assert not starts[i]


def test_each_prompt_in_the_log_names_the_guards_that_fired() -> None:
    """The log's ``guards``: one sorted list per prompt asked on the action (as ``causes``),
    so a doubt can be told apart (a rival one misread away, a hand elsewhere…)."""
    from companion.sim.camera_causes import _GUARDS

    header, truth = load_record("two-players")
    # 32 actions: two generations and a doubt asked (the first 14 held one prompt, the
    # takes made before the fill was entered, applied since the eighteenth session)
    game = play(header, truth[:32])
    rows = [r for r in game.log if r["causes"]]
    assert rows, game.log
    for r in rows:
        assert len(r["guards"]) == len(r["causes"]), r
        for cause, fired in zip(r["causes"], r["guards"], strict=True):
            assert fired == sorted(fired)
            if cause in ("doubt", "unseen"):
                assert any(_GUARDS.get(g) == cause for g in fired), r
