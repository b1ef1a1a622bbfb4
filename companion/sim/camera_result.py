"""What a camera game (``companion.sim.camera_game``) keeps and reports: the link that
keeps a wrong action in the game (``CameraLink``) and the result (``CameraGame``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.sim.camera_causes import breakdown
from companion.sim.link import Counts, SimLink
from companion.sim.stale_regions import StaleRegions

__all__ = ["CameraGame", "CameraLink"]


class CameraLink(SimLink):
    """The simulator's link, but what the reconciler submits stays in the game even when it
    is wrong (counted as wrong), so a wrong explanation shows in the final state. ``made``:
    for each action applied, the game clock's time (``clock``) when it was."""

    keeps_wrong = True

    def __init__(self, header: dict[str, Any], truth: list[dict[str, Any]], counts: Counts,
                 clock: list[float]):
        super().__init__(header, truth, counts)
        self.clock = clock
        self.made: list[float] = []

    def submit(self, action: dict[str, Any], source: str, expected_seq: int,
               observations: list[dict[str, Any]]) -> int:
        """As ``SimLink.submit`` (raises what it raises), the time noted."""
        n = super().submit(action, source, expected_seq, observations)
        self.made.append(self.clock[0])
        return n


@dataclass
class CameraGame:
    """What happened when a game was seen through the rendered camera."""

    counts: Counts
    frames: int = 0
    adapter_s: float = 0.0  # the camera adapter's own time (read + settle; not rendering)
    adapter_cpu_s: float = 0.0  # the same in process CPU time (steadier on a busy machine)
    render_s: float = 0.0
    render_cpu_s: float = 0.0
    renders: int = 0
    camera_observations: int = 0  # cubes, figures, items and marker cells emitted
    hand_frames: int = 0  # frames in which a hand covered at least one read region
    committed_under_hand: list[str] = field(default_factory=list)
    # committed readings unlike what was drawn (cubes, figures, goods): "t region got want"
    misread: list[str] = field(default_factory=list)
    final: dict[str, Any] = field(default_factory=dict)
    expected: dict[str, Any] = field(default_factory=dict)
    wrong: list[tuple[int, dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    wall_s: float = 0.0
    cpu_s: float = 0.0  # process CPU time of the whole run (renderer included)
    # seconds of stillness before another player's move (a range: drawn for each turn)
    turn_gap: float | tuple[float, float] = 0.0
    renderer: str = "ideal"  # or "real" (``Scene.real``, lens and empty-board model)
    not_learned: list[str] = field(default_factory=list)  # boards calibrate empty left out
    entered_under_prompt: int = 0  # actions entered while the tablet asked about them
    # actions the reconciler applied in the tick right after a player at the tablet
    # answered a prompt there before entering a move
    applied_after_answer: int = 0
    # per true action: its type, how it was made (auto, prompted, manual), why it was
    # entered when it was (``why``: tablet, nothing-seen, overtaken) and what it changed
    log: list[dict[str, Any]] = field(default_factory=list)
    # the changes of the moves the camera never reported (``stale_regions``)
    stale: StaleRegions = field(default_factory=StaleRegions)

    def to_json(self) -> dict[str, Any]:
        c = self.counts
        n = c.actions or 1
        return {
            "renderer": self.renderer,
            "turn_gap_s": self.turn_gap,
            "actions": c.actions,
            "auto_from_camera": c.auto_correct,
            "auto_rate": round(c.auto_correct / n, 4),
            "auto_wrong": c.auto_wrong,
            "touches_per_action": round(c.touches / n, 4),
            "answers": c.answers,
            "acknowledged": c.acks,
            "prompted": c.prompted,
            "prompts": c.prompts,
            "prompt_had_truth": c.prompt_had_truth,
            "manual": c.manual,
            "discrepancies": c.discrepancies,
            "final_state_matches": self.final == self.expected,
            "frames": self.frames,
            "ms_per_frame": round(self.adapter_s / max(self.frames, 1) * 1e3, 2),
            "cpu_ms_per_frame": round(self.adapter_cpu_s / max(self.frames, 1) * 1e3, 2),
            "render_ms_per_image": round(self.render_s / max(self.renders, 1) * 1e3, 2),
            "render_cpu_ms_per_image": round(
                self.render_cpu_s / max(self.renders, 1) * 1e3, 2),
            "renders": self.renders,
            "reconcile_ms_mean": round(sum(c.timings) / max(len(c.timings), 1) * 1e3, 2),
            "camera_observations": self.camera_observations,
            "hand_frames": self.hand_frames,
            "committed_under_hand": len(self.committed_under_hand),
            "committed_misread": len(self.misread),
            "entered_under_prompt": self.entered_under_prompt,
            "applied_after_answer": self.applied_after_answer,
            "wall_s": round(self.wall_s, 1),
            "cpu_s": round(self.cpu_s, 1),
            **({"not_learned": self.not_learned} if self.renderer == "real" else {}),
            **self.stale.to_json(),
            "touches": breakdown(self.log),
        }
