"""Random legal games: one play-out loop, the policies that drive it, conformance
(invariants after every action) and throughput.

    state, actions = play_out(v.start(header), random_legal, random.Random(7))
    for action, after in steps(state, policy, rng, apply=v.apply_unchecked): ...

Every random-play loop of the project (``companion simulate``, the golden playthroughs,
``companion bench``, the reconciler's simulated games and demo, the tests) goes through
`steps`: a policy picks the next action from the state and the generator; the same seed
gives the same game because the same calls are made on the generator in the same order.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

from companion import village as v
from companion.bags import draw_with_rng
from companion.store.record import format_record
from companion.village.invariants import violations
from companion.village.vocabulary import Color

MAX_ACTIONS = 20_000  # a game still running after this many actions counts as "cap"

A = TypeVar("A")
Policy = Callable[[v.GameState, random.Random], A]
"""Picks the next action (a record form, or an `Action`) for a state not over."""


def steps(
    state: v.GameState,
    policy: Policy[A],
    rng: random.Random,
    *,
    apply: Callable[[v.GameState, A], v.GameState] | None = None,
    limit: int | None = MAX_ACTIONS,
) -> Iterator[tuple[A, v.GameState]]:
    """Yield ``(action, state after it)`` for each action ``policy`` picks, until the game
    is over or ``limit`` actions were played (None: no limit). The policy is asked for an
    action only when the consumer wants the next one. Raises what ``apply`` raises
    (`v.IllegalAction` for an illegal pick with the checked ``apply``, the default)."""
    if apply is None:
        apply = cast(Callable[[v.GameState, A], v.GameState], v.apply)
    played = 0
    while state.phase != "over" and (limit is None or played < limit):
        action = policy(state, rng)
        state = apply(state, action)
        played += 1
        yield action, state


def play_out(
    state: v.GameState,
    policy: Policy[A],
    rng: random.Random,
    *,
    apply: Callable[[v.GameState, A], v.GameState] | None = None,
    limit: int | None = MAX_ACTIONS,
) -> tuple[v.GameState, list[A]]:
    """Play from ``state`` with ``policy`` (see `steps`): the last state and the actions."""
    actions: list[A] = []
    last = state
    for action, last in steps(state, policy, rng, apply=apply, limit=limit):  # noqa: B007
        actions.append(action)
    return last, actions


def random_legal(st: v.GameState, rng: random.Random) -> dict[str, Any]:
    """A draw made with ``rng`` at a chance step, else a legal action picked uniformly."""
    spec = v.chance_spec(st)
    if spec is not None:
        return draw_with_rng(spec, rng)
    return rng.choice(v.legal_actions(st)).to_json()


def random_legal_or_anytime(st: v.GameState, rng: random.Random) -> dict[str, Any]:
    """As `random_legal`, the actions any player may take at any moment among the picks."""
    spec = v.chance_spec(st)
    if spec is not None:
        return draw_with_rng(spec, rng)
    options = v.legal_actions(st)
    options += [a for c in st.players for a in v.anytime_actions(st, c)]
    return rng.choice(options).to_json()


def random_table(st: v.GameState, rng: random.Random) -> dict[str, Any]:
    """The table's random play (`random_game`): as `random_legal_or_anytime` (anytime
    actions only with modules that have them), and a draw that players may report one by
    one (a life goal tile) reported by hand half the time: one of them reports a tile still
    free, else the rest are drawn virtually."""
    spec = v.chance_spec(st)
    reports = [a for c in st.players for a in v.hand_reports(st, c)] if spec else []
    reports = [a for a in reports if v.is_legal(st, a)]
    if reports and rng.random() < 0.5:
        return rng.choice(reports).to_json()
    if spec is not None:
        return draw_with_rng(spec, rng)
    options = v.legal_actions(st)
    if st.rules.anytime:
        options += [a for c in st.players for a in v.anytime_actions(st, c)]
    return rng.choice(options).to_json()


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
    """Play one game with `random_table`: uniformly among legal actions (and the actions
    any player may take at any moment, with modules that have them), bags drawn with
    ``rng``, draws that players may report one by one reported by hand half the time.

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
    apply = v.apply if check else _apply_record_unchecked
    for obj, after in steps(st, random_table, rng, apply=apply):
        st = after
        actions.append(obj)
        if check:
            problems.extend(f"action {len(actions)}: {p}" for p in violations(st))
    if check and v.summary(v.replay(header, actions)) != v.summary(st):
        problems.append("replaying the record gives a different state")
    ended = (st.end_cause or "unknown") if st.phase == "over" else "cap"
    return GameResult(header, actions, st, ended, problems)


def _apply_record_unchecked(st: v.GameState, obj: dict[str, Any]) -> v.GameState:
    return v.apply_unchecked(st, v.parse_action(obj))


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

