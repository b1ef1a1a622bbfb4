"""A recorded game seen only by the rendered camera: real renderer, camera adapter, vision
reader and reconciler (``companion.sim.camera_game``)."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from companion.reconcile.observations import CubeCounts, Observation, Occluded
from companion.sensors.camera import CameraAdapter
from companion.sim.camera_game import load_record, play
from vision.layout import load
from vision.render import Scene, on_table, render
from vision.sources import SimSource
from vision.table import from_dict

GOLDEN_TWO_PLAYERS = Path(__file__).resolve().parents[1] / "golden" / "two-players.jsonl"

cv2.setNumThreads(1)


def _check(game, actions: int) -> None:  # type: ignore[no-untyped-def]
    c = game.counts
    assert game.final == game.expected, game.wrong
    assert c.auto_wrong == 0, game.wrong
    assert c.auto_correct + c.prompted + c.manual == c.actions == actions
    assert c.prompt_had_truth == c.prompts
    assert game.hand_frames > 0 and game.committed_under_hand == []


def test_first_rounds_of_a_golden_game_through_the_rendered_camera() -> None:
    """The first 40 actions of the two-player record (two fills of the board)."""
    header, truth = load_record("two-players")
    game = play(header, truth[:40])
    _check(game, sum(1 for a in truth[:40] if a["type"] != "reveal_customers"))
    # cubes, markers, figures by colour and the farms' goods are what the camera sees: it
    # explains two thirds of the actions at least (cubes and markers alone, before issue 16
    # item 5: 18 of 39; the round's fill read by the camera is confirmed on the tablet)
    assert game.counts.auto_correct >= game.counts.actions * 2 // 3, game.to_json()
    # 10 touches of 39 at most (0.2564): one more than main's 9 since a doubted region is
    # uncertain (issue 15, ninth session): family read one brown short after the fill, then
    # that brown taken, was asked; since the eighteenth session it is applied, the family
    # having been read as the fill before the fill was entered (the take was made first)
    assert game.to_json()["touches_per_action"] <= 0.26, game.to_json()


@pytest.mark.slow
def test_four_rounds_of_a_golden_game_through_the_rendered_camera() -> None:
    """The first 118 of the two-player record's 290 actions (its first three rounds and the
    fourth fill of the board, ~1,300 frames; 43 s in one run on the shared machine). The whole
    game: ``python -m companion.sim.camera_game``."""
    header, truth = load_record("two-players")
    game = play(header, truth[:118])
    _check(game, sum(1 for a in truth[:118] if a["type"] != "reveal_customers"))
    assert game.counts.auto_correct >= game.counts.actions // 3, game.to_json()


def test_a_hand_resting_over_a_move_longer_than_the_settle_time_commits_nothing() -> None:
    """The hand rests 1.2 s (twice the camera's settle time) over the space whose cubes
    change under it, on every move: nothing it covers is committed, the game still ends
    where its record does."""
    header, truth = load_record("two-players")
    game = play(header, truth[:12], hand_frames=6)
    _check(game, 11)
    assert game.hand_frames >= 6 * 8


def test_the_region_a_hand_left_stays_occluded_until_it_settles() -> None:
    """The cubes change under the hand; the reconciler must not compare the value committed
    before the hand once it has gone: the region is cleared no earlier than its new value
    is committed."""
    layout = load()
    before = from_dict({"space:harvest": {"brown": 2}})
    after = from_dict({"space:harvest": {"brown": 1}})
    tip = on_table(layout, "space:harvest")
    assert tip is not None
    frames = [(before, [])] * 8 + [(after, [tip])] * 3 + [(after, [])] * 10
    t = [0.0]
    seen: list[Observation] = []
    cache: dict[int, object] = {}

    def frame(n: int):  # type: ignore[no-untyped-def]
        view, hands = frames[min(n, len(frames) - 1)]
        key = id(view) * 2 + bool(hands)
        if key not in cache:
            cache[key] = render(layout, view, Scene(seed=3, camera=1, pieces=3,
                                                    hands=hands)).image
        return cache[key]

    adapter = CameraAdapter(lambda: SimSource(frame, fps=5.0), seen.append, settle_s=0.6,
                            reconnect_s=0.0, clock=lambda: t[0])
    for _ in range(len(frames)):
        t[0] += 0.2
        adapter.step()
    harvest = [o for o in seen if isinstance(o, CubeCounts) and o.region == "space:harvest"]
    assert [dict(o.counts) for o in harvest] == [{"brown": 2}, {"brown": 1}]
    covered = [o.t for o in seen if isinstance(o, Occluded) and "space:harvest" in o.regions]
    cleared = [o.t for o in seen if isinstance(o, Occluded) and not o.regions
               and covered and o.t > covered[0]]
    assert covered and cleared
    assert cleared[0] >= harvest[1].t
    # and the new value was committed after the hand left plus the settle time
    assert harvest[1].t >= 2.2 + 0.6


def test_the_real_table_calibrated_as_a_person_would() -> None:
    """``real``: the real-table renderer (lens distortion, printed artwork, lit 3-D cubes,
    JPEG), the camera calibrated first (lens from the sheet, the empty boards from three
    frames, cubes); every board learned, the record's end reached, nothing wrong applied,
    and each committed reading compared with what was drawn."""
    header, truth = load_record("two-players")
    game = play(header, truth[:10], real=True)
    _check(game, 9)
    out = game.to_json()
    assert out["renderer"] == "real" and out["not_learned"] == []
    assert out["committed_misread"] == len(game.misread)
    assert game.counts.auto_correct >= 3, out  # the first takes, seen on the real table
    assert [x["n"] for x in game.log] == list(range(10))


@pytest.mark.slow
def test_the_crop_of_each_committed_misread_is_written(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``crops``: the frame's crop of every committed misread, named in the misread list's
    order (on the real table the first misread is a farm's supply, at action 33)."""
    header, truth = load_record("two-players")
    game = play(header, truth[:34], real=True, turn_gap=(4.0, 12.0), crops=tmp_path)
    written = sorted(p.name for p in tmp_path.glob("*.png"))
    assert game.misread and written == [f"m{k:03d}.png" for k in range(1, len(game.misread) + 1)]
    first = cv2.imread(str(tmp_path / written[0]))
    assert first is not None and min(first.shape[:2]) >= 40


def test_a_committed_reading_unlike_the_drawing_is_counted() -> None:
    from companion.sim.camera_game import _drawn
    from vision.table import TableView

    view = TableView(cubes={"space:harvest": {"brown": 2, "pink": 0}},
                     zones={"council:1": ["red-1", "monk-3"]})
    assert _drawn(view, CubeCounts("camera:0", 0.0, "space:harvest", {"brown": 2})) == {
        "brown": 2}
    assert _drawn(view, CubeCounts("camera:0", 0.0, "space:market", {})) == {}
    from companion.reconcile.observations import FigureCounts
    assert _drawn(view, FigureCounts("camera:0", 0.0, "council:1", {})) == {
        "red": 1, "black": 1}


@pytest.mark.slow
def test_a_hand_resting_over_a_farm_after_a_turn_gap_commits_nothing() -> None:
    """As the test above, with 4 s of stillness between two players' turns (the behaviour
    model's least): nothing is committed under a hand. The hand over the red farm at its
    harvest (action 9) was once read as ``farm:red`` {red 2, white 9}, ``goods:red``
    {horse 4} and committed, on the flow of that time; the case itself is now
    ``tests/vision/test_vision_read.py::test_a_hand_over_half_a_farm_is_a_hand_whatever_its_skin``."""
    header, truth = load_record("two-players")
    game = play(header, truth[:12], hand_frames=6, turn_gap=4.0)
    assert game.committed_under_hand == [], game.misread


def test_a_game_played_on_purpose_skips_nothing_while_something_else_is_possible() -> None:
    """``--play purposeful``: the reconcile bench's purposeful two-player game of a seed
    (the golden record is uniformly random play: 26 skips, 5 passes in 290 actions); the
    same seed gives the same game, and its first moves play through the rendered camera."""
    from companion.sim.camera_game import main, purposeful_game

    header, truth = purposeful_game(1)
    assert header["players"] == ["red", "yellow"]
    assert truth == purposeful_game(1)[1]
    assert not [a for a in truth if a["type"] in ("skip", "pass")]
    assert main(["--play", "purposeful", "--seed", "1", "--actions", "6", "--json"]) == 0


def test_the_log_is_written_as_the_game_goes_and_says_where_it_stopped(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``--log``: each action's line is written (and flushed) once the action is made, so a
    run the engine stops (here a record whose eighth action is yellow's again, illegal)
    leaves what happened up to there, and a last line saying where and why it stopped."""
    import json

    from companion.sim.camera_game import main

    lines = (GOLDEN_TWO_PLAYERS.read_text("utf-8").splitlines())[:8]
    illegal = '{"type":"take","player":"yellow","space":"family","cube":"brown"}'
    record = tmp_path / "stops.jsonl"
    record.write_text("\n".join([*lines, illegal]) + "\n", "utf-8")
    log = tmp_path / "log.jsonl"
    assert main(["--game", str(record), "--log", str(log), "--json"]) == 1
    rows = [json.loads(x) for x in log.read_text("utf-8").splitlines()]
    actions = [r for r in rows if "n" in r]
    assert actions and [r["n"] for r in actions] == list(range(len(actions)))
    assert all(r["right"] for r in actions)
    assert rows[-1]["event"] == "stopped" and rows[-1]["at"] == 7, rows[-1]
    assert "yellow" in rows[-1]["error"] or "turn" in rows[-1]["error"].lower(), rows[-1]
