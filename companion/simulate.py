"""Random legal games: conformance (invariants after every action) and throughput."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import village as v
from companion.bags import draw_with_rng
from companion.store.record import format_record
from companion.village.invariants import violations
from companion.village.vocabulary import Color

MAX_ACTIONS = 20_000  # a game still running after this many actions counts as "cap"


@dataclass
class GameResult:
    header: dict[str, Any]
    actions: list[dict[str, Any]]
    final: v.GameState
    ended_by: str
    violations: list[str] = field(default_factory=list)


def random_game(
    players: int,
    rng: random.Random,
    *,
    check: bool = True,
    board: v.BoardData | None = None,
    modules: tuple[str, ...] = (),
    goal_claims: str = "manual",
    module_values: dict[str, Any] | None = None,
) -> GameResult:
    """Play one game choosing uniformly among legal actions (and the actions any player
    may take at any moment, with modules that have them) and drawing bags with ``rng``;
    draws that players may report one by one are reported by hand half the time.

    With ``check``, every action goes through the checked ``apply`` from its record form,
    invariants are checked after each, and the record is replayed at the end.
    """
    seats = [c.value for c in list(Color)[:players]]
    header = v.make_header(
        seats,
        board=board or v.load_board(),
        modules=modules,
        goal_claims=goal_claims,
        module_values=module_values,
    )
    st = v.start(header)
    actions: list[dict[str, Any]] = []
    problems: list[str] = []
    while st.phase != "over" and len(actions) < MAX_ACTIONS:
        spec = v.chance_spec(st)
        # a draw made by hand that players report one by one (a life goal tile): half the
        # time one of them reports a tile still free, else the rest are drawn virtually
        reports = [a for c in st.players for a in v.hand_reports(st, c)] if spec else []
        reports = [a for a in reports if v.is_legal(st, a)]
        if reports and rng.random() < 0.5:
            obj = rng.choice(reports).to_json()
        elif spec is not None:
            obj = draw_with_rng(spec, rng)
        else:
            options = v.legal_actions(st)
            if st.rules.anytime:
                options += [a for c in st.players for a in v.anytime_actions(st, c)]
            obj = rng.choice(options).to_json()
        actions.append(obj)
        st = v.apply(st, obj) if check else v.apply_unchecked(st, v.parse_action(obj))
        if check:
            problems.extend(f"action {len(actions)}: {p}" for p in violations(st))
    if check and v.summary(v.replay(header, actions)) != v.summary(st):
        problems.append("replaying the record gives a different state")
    ended = (st.end_cause or "unknown") if st.phase == "over" else "cap"
    return GameResult(header, actions, st, ended, problems)


def simulate(
    games: int,
    seed: int,
    players: int | None,
    record_dir: Path | None = None,
    modules: tuple[str, ...] = (),
    goal_claims: str = "manual",
) -> dict[str, Any]:
    """Play ``games`` random games; players cycle 2, 3, 4 unless fixed."""
    rng = random.Random(seed)
    totals = {"games": games, "actions": 0, "violations": 0}
    ended_by: dict[str, int] = {}
    examples: list[str] = []
    start = time.perf_counter()
    for i in range(games):
        n = players or 2 + i % 3
        result = random_game(n, rng, modules=modules, goal_claims=goal_claims)
        totals["actions"] += len(result.actions)
        totals["violations"] += len(result.violations)
        examples.extend(f"game {i + 1}: {p}" for p in result.violations[:3])
        ended_by[result.ended_by] = ended_by.get(result.ended_by, 0) + 1
        if record_dir is not None:
            record_dir.mkdir(parents=True, exist_ok=True)
            path = record_dir / f"game-{seed}-{i + 1:04d}.jsonl"
            path.write_text(format_record(result.header, result.actions), "utf-8")
    seconds = time.perf_counter() - start
    return {
        **totals,
        "seconds": round(seconds, 3),
        "actions_per_second": round(totals["actions"] / seconds, 1) if seconds else None,
        "games_per_second": round(games / seconds, 3) if seconds else None,
        "ended_by": ended_by,
        "modules": list(modules),
        "violation_examples": examples[:10],
    }

