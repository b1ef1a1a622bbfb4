"""Compare the engine's speed in two source trees side by side, on a shared machine.

    python scripts/bench_pair.py TREE_A TREE_B [--rounds 10] [--games 90] [--modules port]

Each round runs the same fixed workload (the same seeded random games, so the same steps)
once in each tree, alternately, in fresh processes, and measures CPU time per step (less
disturbed by other processes than wall time). Prints each tree's runs, min and median.
Make a tree of another commit with ``git archive COMMIT companion | tar -x -C DIR``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

WORKLOAD = r"""
import json, random, sys, time
from companion import village as v
from companion.bags import draw_with_rng
modules = [m for m in sys.argv[1].split(",") if m]
games = int(sys.argv[2])
rng = random.Random(7)
board = v.load_board()
steps = 0
t0 = time.process_time()
for game in range(games):
    players = ["red", "yellow", "blue", "white"][: 2 + game % 3]
    st = v.new_game(players, board, modules=modules) if modules else v.new_game(players, board)
    while st.phase != "over":
        spec = v.chance_spec(st)
        if spec is not None:
            action = v.parse_action(draw_with_rng(spec, rng))
        else:
            action = rng.choice(v.legal_actions(st))
        st = v.apply_unchecked(st, action)
        steps += 1
dt = time.process_time() - t0
print(json.dumps({"steps": steps, "us": round(dt / steps * 1e6, 2)}))
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs=2)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--games", type=int, default=90)
    ap.add_argument("--modules", default="", help="e.g. port,life_goals (tree B must know them)")
    args = ap.parse_args()
    runs: dict[str, list[dict[str, float]]] = {t: [] for t in args.trees}
    for _ in range(args.rounds):
        for tree in args.trees:
            out = subprocess.run(
                [sys.executable, "-c", WORKLOAD, args.modules, str(args.games)],
                cwd=tree,
                env={"PYTHONPATH": tree, "PATH": "/usr/bin:/bin"},
                capture_output=True,
                text=True,
                check=False,
            )
            if out.returncode:
                print(out.stderr[-2000:], file=sys.stderr)
                return 1
            runs[tree].append(json.loads(out.stdout))
    for tree, results in runs.items():
        us = [r["us"] for r in results]
        print(
            f"{tree}: {int(results[0]['steps'])} steps; µs/step {us}; "
            f"min {min(us)}, median {round(statistics.median(us), 2)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
