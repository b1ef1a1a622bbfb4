"""``companion read-board``, ``vision-bench`` and ``calibrate`` (the camera commands)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.paths import DEFAULT_DB


def calibration_path(args: argparse.Namespace) -> Path:
    """``--calibration`` or ``<db>.camera.json`` beside the database."""
    if getattr(args, "calibration", None):
        return Path(args.calibration).expanduser()
    db = Path(getattr(args, "db", None) or DEFAULT_DB).expanduser()
    return db.with_suffix(".camera.json")


def _image(path: str):  # type: ignore[no-untyped-def]
    import cv2

    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise OSError(f"cannot read image {path}")
    return img


def read_board(args: argparse.Namespace) -> int:
    from vision import calibration

    try:
        cal = calibration.load(calibration_path(args))
        frame = _image(args.image)
    except (OSError, calibration.CalibrationError) as exc:
        print(f"companion read-board: {exc}", file=sys.stderr)
        return 2
    reading = cal.reader().read(frame)
    out: dict[str, Any] = reading.to_json()
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"board found: {out['board_found']}; occluded: {', '.join(out['occluded']) or '-'}")
        for space, counts in out["spaces"].items():
            print(f"  {space:8} {counts}")
        for track, cells in out["tracks"].items():
            print(f"  {track:12} {cells}")
        print(f"confidence {out['confidence']}")
    return 0 if reading.board_found else 1


def vision_bench(args: argparse.Namespace) -> int:
    import cv2

    from vision import bench
    from vision.layout import load

    cv2.setNumThreads(1)
    layout = load()
    names = args.conditions.split(",") if args.conditions else bench.condition_names()
    unknown = [n for n in names if n not in bench.condition_names()]
    if unknown:
        print(f"companion vision-bench: unknown condition {', '.join(unknown)} (known: "
              f"{', '.join(bench.condition_names())})", file=sys.stderr)
        return 2
    per = args.per_condition
    if args.speed_only:
        speed = {**bench.speed(layout),
                 **{f"real_{k}": v for k, v in bench.speed(layout, real=True).items()}}
        print(json.dumps(speed, indent=1) if args.json else _speed_lines(speed))
        return 0
    if args.errors:
        from vision import bench_errors

        crops = Path(args.crops) if args.crops else None
        errs = bench_errors.errors(layout, per, seed=args.seed, conditions=names,
                                   views=args.views, crops=crops)
        print(json.dumps(errs, indent=1) if args.json else bench_errors.report(errs))
        return 0
    acc = bench.accuracy(layout, per, seed=args.seed, conditions=names, views=args.views)
    occ = bench.occlusion_sequences(layout, args.sequences, seed=args.seed)
    real_occ = bench.occlusion_sequences(layout, args.sequences, seed=args.seed, real=True)
    speed = bench.speed(layout) if args.speed else {}
    if args.speed:
        speed.update({f"real_{k}": v for k, v in bench.speed(layout, real=True).items()})
    result = {
        "accuracy": {k: v["exact"] for k, v in acc.items()},
        # each reading's own row: cubes and tracks (``accuracy``), figures, items
        "accuracy_by_kind": {k: {"cubes_tracks": v["exact"], "figures": v["figures_exact"],
                                 "items": v["items_exact"],
                                 "first_player": v["first_player_exact"]}
                             for k, v in acc.items()},
        # how many of each were read: the simulated camera misreads at the upper bound
        "counted_by_kind": {k: {kind: v.get(f"{kind}_counted", 0) for kind in KINDS}
                            for k, v in acc.items()},
        "conditions": acc,
        "images": per * len(names),
        **speed,
        "committed_under_occlusion": occ["committed_under_occlusion"],
        "occlusion_sequences": occ,
        "real_committed_under_occlusion": real_occ["committed_under_occlusion"],
        "real_occlusion_sequences": real_occ,
        "misread_under_hand": sum(int(v["misread_under_hand"]) for v in acc.values()),
        "threads": 1,
    }
    if args.into:
        _into(Path(args.into), result, names)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(f"{'condition':18} exact  all-right  board-found  misread-under-hand  "
              "figures  items  first-player")
        for k, v in acc.items():
            print(f"{k:18} {v['exact']:.4f} {v['images_all_right']:4}/{v['images']:<4} "
                  f"{v['board_found']:4}/{v['images']:<4}  {v['misread_under_hand']:18}  "
                  f"{v['figures_exact']:.4f}  {v['items_exact']:.4f}  "
                  f"{v['first_player_exact']:.4f}")
        if speed:
            print(_speed_lines(result))
        print(f"{result['images']} images; committed under occlusion "
              f"{result['committed_under_occlusion']} (ideal), "
              f"{result['real_committed_under_occlusion']} (real table)")
    return 0


KINDS = ("cubes_tracks", "figures", "items", "first_player")
# the rows of a vision-bench result that hold one entry per condition
_PER_CONDITION = ("accuracy", "accuracy_by_kind", "counted_by_kind", "conditions")


def _into(path: Path, result: dict[str, Any], names: list[str]) -> None:
    """Write the rows of the conditions just measured into the bench file at ``path``
    (``docs/vision-bench.json``), keeping the other conditions' rows and every other key
    the run did not measure; each measured condition is stamped with the code it was
    measured on and when. Raises ``OSError`` when ``path`` cannot be written and
    ``ValueError`` when it holds no JSON object."""
    import datetime
    import subprocess

    old: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    if not isinstance(old, dict):
        raise ValueError(f"{path} holds no JSON object")
    merged = {**old, **{k: v for k, v in result.items() if k not in _PER_CONDITION}}
    for key in _PER_CONDITION:
        merged[key] = {**old.get(key, {}), **result[key]}
    code = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, cwd=Path(__file__).parent, check=False).stdout.strip()
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    merged["measured"] = {**old.get("measured", {}),
                          **{n: {"code": code or "unknown", "at": now} for n in names}}
    rows = merged["conditions"].values()
    merged["images"] = sum(int(v.get("images", 0)) for v in rows)
    merged["misread_under_hand"] = sum(int(v.get("misread_under_hand", 0)) for v in rows)
    path.write_text(json.dumps(merged, indent=1) + "\n")


def _speed_lines(speed: dict[str, Any]) -> str:
    """The speed rows of ``vision-bench`` as text: wall and CPU time (the goal's measure:
    a steady table at most 2.5× one warpPerspective, every region changing 33 ms)."""
    lines = []
    for pre, what in (("", "ideal"), ("real_", "real table, calibrated")):
        lines.append(
            f"speed ({what}): steady {speed[pre + 'ms_per_frame']} ms/frame wall, "
            f"{speed[pre + 'cpu_ms_per_frame']} ms CPU; warp {speed[pre + 'warp_ms']} ms wall, "
            f"{speed[pre + 'cpu_warp_ms']} ms CPU; ratio {speed[pre + 'ratio_to_warp']} wall, "
            f"{speed[pre + 'cpu_ratio_to_warp']} CPU; every region changing "
            f"{speed[pre + 'ms_per_frame_changing']} ms wall, "
            f"{speed[pre + 'cpu_ms_per_frame_changing']} ms CPU")
    return "\n".join(lines)


def calibrate(args: argparse.Namespace) -> int:
    from vision import calibration
    from vision.markers_sheet import write_sheet

    path = calibration_path(args)
    try:
        cal = calibration.load(path)
        if args.step == "markers":
            print(write_sheet(cal.layout, Path(args.out)))
            return 0
        if args.step == "charuco":
            import cv2

            from vision import charuco

            if not cv2.imwrite(args.out, charuco.sheet()):
                raise OSError(f"cannot write {args.out}")
            print(args.out)
            return 0
        if args.step == "show":
            data = cal.to_json()
            data.pop("references")
            print(json.dumps({"file": str(path), "steps": cal.steps,
                              "area_factor": cal.area_factor,
                              "cube_scale": cal.cube_scale,
                              "lens": cal.lens.to_json() if cal.lens else None,
                              "colours": data["layout"]["colours"]}, indent=1))
            return 0
        if args.step == "overlay":
            import cv2

            from vision.overlay import draw_layout, rectify

            frame = _image(args.image)
            lay = cal.layout
            boards = cal.tracker().update(frame).boards
            if args.board not in boards:
                raise calibration.CalibrationError(f"board {args.board!r} not found")
            board = lay.boards[args.board]
            img = draw_layout(rectify(frame, boards[args.board], board, 2.0, cal.lens), board,
                              2.0)
            if not cv2.imwrite(args.out, img):
                raise OSError(f"cannot write {args.out}")
            print(args.out)
            return 0
        if args.step == "empty":
            frames = [_image(p) for p in args.images]
            found = calibration.find_boards(cal, frames)
            cal = calibration.capture_empty(cal, frames)
            print("empty boards learned: " + ", ".join(
                f"{n} ({len(found[n])} of {len(frames)} frames)" for n in cal.layout.boards
                if n in found))
            missing = calibration.not_learned(cal)
            if missing:
                print(f"not learned (found in no frame): {', '.join(missing)}; until they "
                      "are, the camera does not read them. Uncover their markers and run "
                      "`companion calibrate empty` again (a farm not on the table: ignore)")
        elif args.step == "cubes":
            placed = {}
            for item in args.place or []:
                region, _, rest = item.partition("=")
                colour, _, count = rest.partition(":")
                placed[region] = (colour, int(count or 1))
            cal = calibration.learn_cubes(cal, _image(args.image), placed)
        elif args.step == "move":
            rect = tuple(float(v) for v in args.rect.split(","))
            if len(rect) != 4:
                raise calibration.CalibrationError("--rect is x0,y0,x1,y1 in board mm")
            cal = calibration.move_region(cal, args.board, args.region,
                                          (rect[0], rect[1], rect[2], rect[3]))
        elif args.step == "lens":
            from vision import charuco

            folder = Path(args.folder)
            photos = sorted(p for p in folder.iterdir()
                            if p.suffix.lower() in (".png", ".jpg", ".jpeg", ".bmp"))
            if not photos:
                raise OSError(f"no photos (.png, .jpg) in {folder}")
            lens = charuco.calibrate(_image(str(p)) for p in photos)
            cal = calibration.set_lens(cal, lens)
            print(f"lens from {lens.views} of {len(photos)} photos: reprojection error "
                  f"{lens.rms:.2f} px, field of view {lens.hfov():.1f}°, distortion "
                  f"{', '.join(f'{v:.3f}' for v in lens.dist)}")
            if cal.references:
                print("the empty boards were recorded before the lens: run "
                      "`companion calibrate empty` again")
        elif args.step == "reset":
            cal = calibration.default()
        path.parent.mkdir(parents=True, exist_ok=True)
        calibration.save(path, cal)
        print(f"saved {path} (steps: {', '.join(cal.steps) or 'none'})")
    except (OSError, ValueError) as exc:
        print(f"companion calibrate: {exc}", file=sys.stderr)
        return 2
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the camera commands to the ``companion`` parser."""
    p = sub.add_parser("read-board", help="read cubes and tracks from one camera image")
    p.add_argument("image")
    p.add_argument("--json", action="store_true")
    p.add_argument("--calibration", help="calibration file (default: <db>.camera.json)")
    p.add_argument("--db", help="the games database the calibration sits beside")
    p.set_defaults(func=read_board)

    p = sub.add_parser("vision-bench", help="camera accuracy per condition, and speed")
    p.add_argument("--per-condition", type=int, default=50, help="rendered images per condition")
    p.add_argument("--conditions", help="comma-separated condition names (default: all)")
    p.add_argument("--no-speed", dest="speed", action="store_false", help="skip the timing")
    p.add_argument("--speed-only", action="store_true",
                   help="only the timing: the reader against one warpPerspective, CPU time, "
                        "on the ideal and the real-table renders")
    p.add_argument("--views", type=int, default=1,
                   help="contents read per calibrated table: the figure and item rows are "
                        "measured on per-condition × views images")
    p.add_argument("--sequences", type=int, default=10, help="hand-over-board sequences")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--errors", action="store_true",
                   help="list every cube region and track, figure zone and item region not "
                        "read exactly, and how")
    p.add_argument("--crops", help="with --errors: write a picture of each wrong region here")
    p.add_argument("--into", help="write the measured conditions' rows into this bench file "
                                  "(docs/vision-bench.json), keeping the others")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=vision_bench)

    p = sub.add_parser("calibrate", help="camera calibration and the marker sheet")
    p.add_argument("--calibration", help="calibration file (default: <db>.camera.json)")
    p.add_argument("--db", help="the games database the calibration sits beside")
    p.set_defaults(func=calibrate)
    steps = p.add_subparsers(dest="step", required=True)
    s = steps.add_parser("markers", help="write the printable marker sheet (PNG, A4 300 dpi)")
    s.add_argument("out")
    s = steps.add_parser("charuco", help="write the lens calibration sheet (PNG, A4 300 dpi)")
    s.add_argument("out")
    s = steps.add_parser("lens", help="compute the lens from a folder of photos of the sheet")
    s.add_argument("folder")
    s = steps.add_parser("empty", help="learn the empty boards from one or more images")
    s.add_argument("images", nargs="+", help="photos of the still, empty table (3–5 is good)")
    s = steps.add_parser("cubes", help="learn cube colours: --place space:church=brown:3")
    s.add_argument("image")
    s.add_argument("--place", action="append", metavar="REGION=COLOUR:COUNT")
    s = steps.add_parser("move", help="set a region's rectangle (board mm)")
    s.add_argument("--board", choices=("main", "farm"), default="main")
    s.add_argument("--region", required=True, help="e.g. space:harvest, prestige#12")
    s.add_argument("--rect", required=True, help="x0,y0,x1,y1")
    s = steps.add_parser("overlay", help="the rectified board with the layout drawn over it")
    s.add_argument("image")
    s.add_argument("out")
    s.add_argument("--board", default="main")
    steps.add_parser("show", help="what has been calibrated")
    steps.add_parser("reset", help="back to the shipped layout")
