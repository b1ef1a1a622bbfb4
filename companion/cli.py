"""The ``companion`` command: serve, replay, simulate, bench, boxcheck, tags, and the
camera's read-board, vision-bench and calibrate (``companion.camera_cli``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion import serve


def _replay(args: argparse.Namespace) -> int:
    from companion import games
    from companion.games.errors import ReplayError
    from companion.store.errors import RecordError
    from companion.store.record import parse_record

    try:
        header, actions = parse_record(Path(args.file).read_text("utf-8"))
        game = games.for_header(header)  # the record's "game": Village today
        if args.json:
            summary = game.summary(game.replay(header, actions))
            print(json.dumps(summary, indent=None if args.compact else 1))
        else:
            sys.stdout.write(game.render(header, actions, narration=not args.brief))
    except (OSError, RecordError, ReplayError) as exc:
        print(f"companion replay: {exc}", file=sys.stderr)
        return 2
    return 0


def _modules(text: str) -> tuple[str, ...]:
    """``port,life_goals`` → the modules in merge order; raises SystemExit if unknown."""
    from companion.village.modules.registry import canonical
    from companion.village.rules import ModuleError

    try:
        return canonical(m.strip() for m in text.split(",") if m.strip())
    except ModuleError as exc:
        raise SystemExit(f"companion: {exc}") from None


def _simulate(args: argparse.Namespace) -> int:
    if args.game != "crecy" and (args.players == 1 or args.solo):
        raise SystemExit(f"companion simulate: {args.game} has no solo game here "
                         "(Crecy's standard solo variant is: --game crecy --players 1)")
    if args.game == "crecy":
        if args.players is not None and args.players > 4:
            raise SystemExit("companion simulate: Crecy is played by 2 to 4 players, or 1")
        from companion.crecy.solo import check_variant
        from companion.sim import crecy_games

        try:
            if args.solo:
                check_variant(["solo"] * (args.players or 1), args.solo)
        except ValueError as exc:
            raise SystemExit(f"companion simulate: {exc}") from None
        players = 1 if args.solo else args.players
        found = crecy_games.simulate(args.games, args.seed, players)
        print(json.dumps(found, indent=1) if args.json else
              f"{found['games']} crecy games, {found['actions']} actions in "
              f"{found['seconds']} s; violations: {found['violations']}")
        return 1 if found["violations"] else 0
    from companion.sim.random_games import simulate

    if args.game == "colonia":
        from companion.sim.colonia_games import simulate as colonia

        result = colonia(args.games, args.seed, args.players)
        if args.json:
            print(json.dumps(result, indent=1))
        else:
            print(f"{result['games']} Colonia games, {result['actions']} actions in "
                  f"{result['seconds']} s; violations: {result['violations']}")
        return 1 if result["violations"] else 0
    if args.players is not None and args.players > 4:
        raise SystemExit("companion simulate: Village is played by 2 to 4 players")
    result = simulate(
        args.games,
        args.seed,
        args.players,
        Path(args.record) if args.record else None,
        modules=_modules(args.modules),
        goal_claims=args.goal_claims,
    )
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(
            f"{result['games']} games, {result['actions']} actions in {result['seconds']} s "
            f"({result['actions_per_second']} actions/s); violations: {result['violations']}; "
            f"ended by: {result['ended_by']}"
        )
    return 1 if result["violations"] else 0


def _bench(args: argparse.Namespace) -> int:
    from companion.bench.engine import bench

    if args.game == "colonia":
        from companion.bench.colonia import bench as colonia

        result = colonia(args.seconds, args.seed)
    elif args.game == "crecy":
        from companion.sim.crecy_games import bench as crecy_bench

        result = crecy_bench(args.seconds, args.seed)
    else:
        result = bench(args.seconds, args.seed, _modules(args.modules))
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(
            f"engine {result['engine_us_per_step']} µs/step, python-chess "
            f"{result['chess_us_per_step']} µs/step, ratio {result['ratio']}"
        )
    return 0


def _boxcheck(args: argparse.Namespace) -> int:
    from companion import boxcheck
    from companion.village.data import BoardDataError

    path = boxcheck.overlay_path(args.overlay)
    try:
        overlay = boxcheck.load_overlay(path)
        if args.boxes is not None:
            names = [b.strip() for b in args.boxes.split(",") if b.strip()]
            boxcheck.save_boxes(boxcheck.boxes_path(path), boxcheck.check_boxes(names))
        answer = boxcheck.load_boxes(boxcheck.boxes_path(path))
        boxes = boxcheck.owned(answer)
        for key in args.confirm or []:
            item = {s["key"]: s for s in boxcheck.status(overlay, boxes)}.get(key)
            if item is None:
                boxcheck.refuse_unowned(key, boxes)
                raise BoardDataError(f"unknown value {key!r}")
            overlay = boxcheck.set_answer(overlay, key, item["value"], boxes)
        for assignment in args.set or []:
            key, _, text = assignment.partition("=")
            try:
                value = json.loads(text)
            except json.JSONDecodeError as exc:
                raise BoardDataError(f"{key}: the value is not JSON: {exc}") from exc
            overlay = boxcheck.set_answer(overlay, key, value, boxes)
        if args.confirm or args.set:
            boxcheck.save_overlay(path, overlay)
        if args.list:
            rows = boxcheck.status(overlay, boxes)
            if args.json:
                doc = {"overlay": str(path), "boxes": list(boxes), "boxes_answered":
                       answer is not None, "values": rows}
                print(json.dumps(doc, indent=1, ensure_ascii=False))
            else:
                for r in rows:
                    mark = "verified" if r["verified"] else f"UNVERIFIED ({r['confidence']})"
                    print(
                        f"{r['key']:24} {mark:22} {json.dumps(r['value'], ensure_ascii=False)[:60]}"
                    )
            return 0
        if not (args.confirm or args.set or args.boxes is not None):
            return boxcheck.interactive(path, sys.stdin, sys.stdout)
    except BoardDataError as exc:
        print(f"companion boxcheck: {exc}", file=sys.stderr)
        return 2
    return 0


def _reconcile_bench(args: argparse.Namespace) -> int:
    from companion.bench import reconcile as rbench

    try:
        print(rbench.main(args.games, args.seed, args.setup, args.noise, args.json,
                          args.players, args.play, args.compute))
    except ValueError as exc:
        print(f"companion reconcile-bench: {exc}", file=sys.stderr)
        return 2
    return 0


def _serve(args: argparse.Namespace) -> int:
    result: int = serve.run(args)
    return result


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Village table companion")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("serve", help="run the table service (the main job)")
    serve.add_arguments(p)
    p.set_defaults(func=_serve)

    p = sub.add_parser("replay", help="replay a game record")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print the state summary as JSON")
    p.add_argument("--compact", action="store_true", help="JSON on one line")
    p.add_argument(
        "--brief", action="store_true", help="the actions only, without the table narration"
    )
    p.set_defaults(func=_replay)

    p = sub.add_parser("simulate", help="play random legal games, checking invariants")
    p.add_argument("--game", choices=("village", "crecy", "colonia"), default="village")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", type=int, choices=(1, 2, 3, 4, 5, 6), default=None,
                   help="Village: 2-4; Crecy: 1 (the standard solo variant) or 2-4; "
                        "Colonia: 2-6")
    p.add_argument("--solo", choices=("standard", "genealogy"), default=None,
                   help="Crecy's solo variant (genealogy is refused: no clue cards)")
    p.add_argument("--record", metavar="DIR", help="write each game's record here")
    p.add_argument("--modules", default="", help="rule modules on, e.g. port,life_goals")
    p.add_argument("--goal-claims", choices=("manual", "auto"), default="manual", help="life goals")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_simulate)

    p = sub.add_parser("bench", help="engine speed against python-chess")
    p.add_argument("--game", choices=("village", "crecy", "colonia"), default="village")
    p.add_argument("--seconds", type=float, default=5.0, help="per side")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--modules", default="", help="rule modules on, e.g. port,life_goals")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_bench)

    p = sub.add_parser(
        "reconcile-bench", help="random games through simulated sensors and the reconciler"
    )
    p.add_argument("--games", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--setup", default="all",
                   help="pad, hub, camera, hub+camera, camera-ideal or all")
    p.add_argument("--noise", default="ordinary", help="none, ordinary, heavy or all")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=3)
    p.add_argument(
        "--play", choices=("random", "purposeful"), default="random",
        help="random: uniform legal play; purposeful: no skip/pass or wasted well when "
        "something else is possible",
    )
    p.add_argument("--json", action="store_true")
    p.add_argument("--compute", action="store_true",
                   help="print the reconciler's CPU per look in percentiles, per setup")
    p.set_defaults(func=_reconcile_bench)

    p = sub.add_parser("boxcheck", help="confirm the printed values of your box")
    p.add_argument(
        "--overlay", help="answers file (default ~/.config/village-companion/boxcheck.json)"
    )
    p.add_argument("--list", action="store_true", help="list every value and whether verified")
    p.add_argument("--json", action="store_true")
    p.add_argument("--confirm", action="append", metavar="KEY", help="confirm KEY as shipped")
    p.add_argument("--set", action="append", metavar="KEY=JSON", help="correct KEY")
    p.add_argument(
        "--boxes",
        metavar="LIST",
        help="the boxes you own besides Village, comma-separated: port, life_goals ('' = none)",
    )
    p.set_defaults(func=_boxcheck)

    from companion.hall.cli import add_parser as add_hall_parser

    add_hall_parser(sub)
    from companion.sensors import tags_cli

    tags_cli.add_parser(sub)
    from companion.camera_cli import add_parsers as add_camera_parsers

    add_camera_parsers(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
