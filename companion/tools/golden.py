"""The golden files under ``tests/golden/``, made by one command and checked by one test.

    python -m companion.tools.golden --write   # regenerate the files (read the diff!)
    python -m companion.tools.golden --check   # exit 1 naming the files that would change
    python -m companion.tools.golden --write --new-records   # new games too (see below)

For each scripted game of `SCRIPTS`:

- ``<name>.jsonl``: the game record, frozen: made once by a seeded
  `companion.sim.random_games.random_game`, then kept as it is, so a rule change shows as a
  change in what the same actions do (``--new-records`` plays the games again with
  today's rules; only when a record no longer replays);
- ``<name>.txt``: the record as readable text (`companion.village.transcript.render`);
- ``<name>.steps.jsonl``: per step, in the manner of OpenSpiel's playthroughs, the legal
  actions (`companion.village.transcript.describe` of each; at a chance step the draw: kind, pieces
  drawn, pieces to draw from), what each viewer sees (`village.view`: ``table`` is what
  everyone sees; a player's entry is only where their view differs from the table's,
  so it holds what they alone may see) and the action taken. Views are flattened to
  dotted paths and given as changes since the step before (``set``: new values,
  ``gone``: paths no longer there); the first step gives them whole;

and ``perft.json``: python-chess's perft idea for this game, the number of action
sequences of length 1, 2 and 3 from a few positions of each game (`perft`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion import village as v
from companion.sim.random_games import random_game
from companion.store.record import format_record, parse_record
from companion.village.transcript import describe, render

__all__ = ["SCRIPTS", "TooBig", "build", "chance_outcomes", "differences", "new_record",
           "perft", "step_lines"]

GOLDEN = Path(__file__).resolve().parents[2] / "tests" / "golden"

# name → (players, seed, rule modules, goal claims)
SCRIPTS: dict[str, tuple[int, int, tuple[str, ...], str]] = {
    "two-players": (2, 11, (), "manual"),
    "three-players": (3, 12, (), "manual"),
    "four-players": (4, 13, (), "manual"),
    # with the rule modules of seed 003 (the printed values as shipped, partly guessed)
    "port-three-players": (3, 27, ("port",), "manual"),
    "life-goals-two-players": (2, 22, ("life_goals",), "auto"),
    "port-and-life-goals-four-players": (4, 23, ("port", "life_goals"), "manual"),
}

PERFT_DEPTH = 3
PERFT_BUDGET = 20_000  # states made at most for one position's counts
CHANCE_LIMIT = 200  # ordered draws at most at one chance step of a perft
PERFT_AT = (0.25, 0.5, 0.75)  # where in each game to look (the first position from there
#                               whose counts fit the budget)


class TooBig(Exception):
    """A perft that would make more states than its budget, or a draw with too many
    possible outcomes to list."""


# --- per-step files --------------------------------------------------------------------


def _flat(value: Any, path: str = "") -> dict[str, Any]:
    if isinstance(value, dict) and value:
        out: dict[str, Any] = {}
        for k, x in value.items():
            out.update(_flat(x, f"{path}.{k}" if path else str(k)))
        return out
    return {path: value}


def _changes(before: dict[str, Any], now: dict[str, Any]) -> dict[str, Any]:
    changed = {k: x for k, x in now.items() if k not in before or before[k] != x}
    gone = [k for k in before if k not in now]
    return {"set": changed, **({"gone": gone} if gone else {})}


def step_lines(header: dict[str, Any], actions: list[dict[str, Any]]) -> Iterator[str]:
    """One JSON line per action of the game (see the module docstring)."""
    st = v.start(header)
    viewers = [*header["players"], "table"]
    seen: dict[str, dict[str, Any]] = {w: {} for w in viewers}
    for i, action in enumerate(actions, start=1):
        line: dict[str, Any] = {"step": i}
        spec = v.chance_spec(st)
        if spec is None:
            line["legal"] = [describe(a.to_json()) for a in _options(st)]
        else:  # what is drawn, never which pieces are left (a deal's stack is hidden)
            line["chance"] = {"kind": spec.kind, "draw": spec.count, "from": len(spec.contents)}
        table = _flat(v.view(st, "table"))
        views: dict[str, Any] = {}
        for w in viewers:
            mine = table if w == "table" else {
                k: x for k, x in _flat(v.view(st, w)).items()
                if k not in table or table[k] != x}
            change = _changes(seen[w], mine)
            if change["set"] or "gone" in change:
                views[w] = change
            seen[w] = mine
        line["views"] = views
        line["action"] = describe(action)
        yield json.dumps(line, ensure_ascii=False, separators=(",", ":"))
        st = v.apply(st, action)


# --- perft -----------------------------------------------------------------------------


def _options(st: v.GameState) -> list[v.Action]:
    """The actions open at a decision step: the legal ones, and with modules that have
    them the ones any player may take at any moment (as `companion.sim.random_games`)."""
    options = v.legal_actions(st)
    if st.rules.anytime:
        options += [a for c in st.players for a in v.anytime_actions(st, c)]
    return options


def chance_outcomes(spec: v.ChanceSpec, limit: int = CHANCE_LIMIT) -> list[dict[str, Any]]:
    """The distinct outcomes of a draw (record forms, in a fixed order). Raises TooBig when
    more than ``limit`` distinct ordered draws would have to be looked at."""
    counts: dict[str, int] = {}
    for piece in spec.contents:
        counts[piece] = counts.get(piece, 0) + 1
    drawn: list[str] = []
    outcomes: dict[str, dict[str, Any]] = {}
    looked = 0

    def draw(left: int) -> None:
        nonlocal looked
        if left == 0:
            looked += 1
            if looked > limit:
                raise TooBig(f"{spec.kind}: more than {limit} draws")
            out = spec.action(list(drawn))
            outcomes.setdefault(json.dumps(out, sort_keys=True), out)
            return
        for piece in counts:
            if counts[piece]:
                counts[piece] -= 1
                drawn.append(piece)
                draw(left - 1)
                drawn.pop()
                counts[piece] += 1

    draw(spec.count)
    return list(outcomes.values())


def perft(st: v.GameState, depth: int, budget: int = PERFT_BUDGET) -> int:
    """How many sequences of ``depth`` actions lead on from ``st``: at a decision step each
    open action (`_options`), at a chance step each distinct outcome of the draw (a draw
    players may also report by hand is counted once, by outcome); a game over before
    ``depth`` ends its sequences. Raises TooBig past ``budget`` states made or for a draw
    with too many outcomes."""
    made = 0

    def count(st: v.GameState, depth: int) -> int:
        nonlocal made
        if depth == 0:
            return 1
        if st.phase == "over":
            return 0
        spec = v.chance_spec(st)
        if spec is not None:
            outcomes: list[Any] = chance_outcomes(spec)
        else:
            outcomes = _options(st)
        if depth == 1:
            return len(outcomes)
        total = 0
        for outcome in outcomes:
            made += 1
            if made > budget:
                raise TooBig(f"more than {budget} states")
            after = v.apply(st, outcome) if spec is not None else v.apply_unchecked(st, outcome)
            total += count(after, depth - 1)
        return total

    return count(st, depth)


def perft_positions(name: str, header: dict[str, Any],
                    actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """From each of `PERFT_AT` through the game, the first position whose counts to
    `PERFT_DEPTH` fit the budget: ``{"game", "step" (actions played), "to_act", "counts"}``."""
    states = [v.start(header)]
    for a in actions:
        states.append(v.apply(states[-1], a))
    out: list[dict[str, Any]] = []
    for at in PERFT_AT:
        for step in range(int(len(actions) * at), len(actions)):
            st = states[step]
            try:
                counts = [perft(st, d) for d in range(1, PERFT_DEPTH + 1)]
            except TooBig:
                continue
            who = "chance" if v.chance_spec(st) is not None else v.pending(st).player
            out.append({"game": name, "step": step, "phase": st.phase,
                        "to_act": str(getattr(who, "value", who)), "counts": counts})
            break
    return out


# --- all files -------------------------------------------------------------------------


def new_record(name: str) -> str:
    """The record of game ``name`` of `SCRIPTS` played afresh with today's rules."""
    players, seed, modules, claims = SCRIPTS[name]
    game = random_game(players, random.Random(seed), modules=modules, goal_claims=claims)
    return format_record(game.header, game.actions)


def build(folder: Path = GOLDEN, new_records: bool = False) -> dict[str, str]:
    """Every golden file's name → its text: the records read from ``folder`` (or played
    afresh with ``new_records``), the rest made from them. Raises OSError for a record
    that is not there, ``v.ReplayError`` (or another ``v.RulesError``) for one that does
    not replay."""
    files: dict[str, str] = {}
    positions: list[dict[str, Any]] = []
    for name in SCRIPTS:
        path = folder / f"{name}.jsonl"
        record = new_record(name) if new_records else path.read_text("utf-8")
        header, actions = parse_record(record)
        files[f"{name}.jsonl"] = record
        files[f"{name}.txt"] = render(header, actions)
        files[f"{name}.steps.jsonl"] = "".join(f"{line}\n" for line in step_lines(header, actions))
        positions.extend(perft_positions(name, header, actions))
    files["perft.json"] = json.dumps(
        {"depths": list(range(1, PERFT_DEPTH + 1)), "positions": positions}, indent=1) + "\n"
    return files


def differences(folder: Path = GOLDEN) -> list[str]:
    """The golden files in ``folder`` that `build` would write differently (or that are
    missing)."""
    out = []
    for name, text in build(folder).items():
        path = folder / name
        if not path.exists() or path.read_text("utf-8") != text:
            out.append(name)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m companion.tools.golden", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", action="store_true", help="regenerate every golden file")
    what.add_argument("--check", action="store_true",
                      help="exit 1 naming the golden files that would change")
    p.add_argument("--new-records", action="store_true",
                   help="with --write: play the scripted games again (new records)")
    p.add_argument("--dir", type=Path, default=GOLDEN, help=f"the folder (default {GOLDEN})")
    args = p.parse_args(argv)
    if args.new_records and not args.write:
        p.error("--new-records goes with --write")
    if args.write:
        args.dir.mkdir(parents=True, exist_ok=True)
        for name, text in build(args.dir, args.new_records).items():
            (args.dir / name).write_text(text, "utf-8")
            print(f"wrote {args.dir / name}")
        return 0
    changed = differences(args.dir)
    for name in changed:
        print(f"would change: {args.dir / name}", file=sys.stderr)
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
