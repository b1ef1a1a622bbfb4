"""The camera calibration page and its API (``/calibrate``, ``/api/camera/…``).

The page shows the rectified board from the camera with the layout drawn over it; the
owner drags regions into place and teaches the empty boards and the cube colours. The
calibration is saved as ``<db>.camera.json`` beside the database (or the file named by the
``camera_calibration`` setting). Frames come from the running camera adapter
(``Runtime.camera()``) when there is one, else from the source named by the
``camera_source`` setting (a device index, ``/dev/videoN``, a file, a folder or ``sim``).
Changes need the table token. ``GET /api/camera/crop.png?region=R``: the running camera's
last frame cut around region R (for a discrepancy shown on the tablet).

The empty boards: ``POST /api/camera/empty/frame`` keeps the camera's frame of the empty
table (``<calibration>.empty/NN.png``, with the boards found in it), ``GET
/api/camera/empty`` says which boards no frame has found yet and what to do next, ``POST
/api/camera/empty`` learns each board from the frames that found it, ``DELETE
/api/camera/empty/frames`` starts again.

The lens step: ``POST /api/camera/lens/photo`` keeps the camera's frame when it shows the
ChArUco sheet (``<calibration>.lens/NN.png``), ``GET /api/camera/lens`` says where to hold
the sheet next (``vision.lens_guide``), ``GET /api/camera/lens/coverage.png`` is the live
frame with what the photos covered, ``POST /api/camera/lens/compute`` computes and saves
the lens, ``DELETE /api/camera/lens/photos`` starts again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request

from web.access import require_table_token, runtime
from web.errors import ApiError
from web.inputs import json_object
from web.pages import board_facts

bp = Blueprint("camera", __name__)
PX_PER_MM = 1.6


def calibration_path() -> Path:
    """Where the calibration is kept: beside the database unless configured."""
    configured = runtime().settings.camera_calibration
    if configured:
        return Path(configured)
    return runtime().store.path.with_suffix(".camera.json")


def _load() -> Any:
    from vision import calibration

    try:
        return calibration.load(calibration_path())
    except calibration.CalibrationError as exc:
        raise ApiError(422, "bad_calibration", str(exc)) from None


def _frame() -> Any:
    """The latest camera frame; ApiError 404 when there is no camera."""
    adapter = runtime().camera()
    if adapter is not None:
        frame = adapter.last_frame()
        if frame is not None:
            return frame
    spec = runtime().settings.camera_source
    if spec:
        from vision.sources import SourceError, open_source

        try:
            source = open_source(str(spec))
            source.open()
            try:
                got = source.read()
            finally:
                source.close()
        except SourceError as exc:
            raise ApiError(404, "no_camera", str(exc)) from None
        if got is not None:
            return got.image
    raise ApiError(404, "no_camera", "no camera frame: start the camera (companion serve --camera)")


def _summary(cal: Any) -> dict[str, Any]:
    lay = cal.layout
    boards = {}
    for key, name in (("main", "main"), ("farm", "farm:red")):
        b = lay.boards[name]
        boards[key] = {"size_mm": list(b.size_mm),
                       "regions": [{"name": r.name.replace(":red", ":{colour}")
                                    if key == "farm" else r.name, "key": r.key if key == "main"
                                    else r.key.replace(":red", ":{colour}"), "kind": r.kind,
                                    "rect": list(r.rect)} for r in b.regions]}
    return {"file": calibration_path().name, "steps": cal.steps, "boards": boards,
            "area_factor": cal.area_factor, "verified": lay.verified,
            "colours": cal.layout_data["colours"]["cubes"], "px_per_mm": PX_PER_MM}


@bp.get("/calibrate")
def calibrate_page() -> str:
    """The calibration page."""
    return render_template("calibrate.html", title="Camera calibration", script="calibrate.js",
                           facts=board_facts())


@bp.get("/api/camera/calibration")
def get_calibration() -> Response:
    """The layout in force (regions in board mm), the steps done, the colours."""
    return jsonify(_summary(_load()))


def _require_viewing_token() -> None:
    """Camera pictures show the players' hands and the table: the table token only (as a
    Bearer header, or ``?token=`` for an ``<img>``). Raises ApiError 401."""
    require_table_token(in_query=True, message="camera pictures need the table token")


@bp.get("/api/camera/rectified.png")
def rectified() -> Response:
    """The board seen from above (``?board=main`` or a farm such as ``farm:red``); table
    token needed."""
    _require_viewing_token()
    import cv2

    from vision.overlay import rectify

    cal = _load()
    name = request.args.get("board", "main")
    lay = cal.layout
    if name not in lay.boards:
        raise ApiError(400, "bad_board", f"no board {name!r}")
    frame = _frame()
    boards = cal.tracker().update(frame).boards
    if name not in boards:
        raise ApiError(404, "board_not_found", f"the markers of {name} are not in view")
    img = rectify(frame, boards[name], lay.boards[name], PX_PER_MM, cal.lens)
    _ok, png = cv2.imencode(".png", img)
    return Response(png.tobytes(), mimetype="image/png",
                    headers={"Cache-Control": "no-store"})


@bp.get("/api/camera/crop.png")
def crop() -> Response:
    """The running camera's last frame cut around one region (``?region=space:market``):
    what the camera saw at the place a discrepancy names. 400 without ``region``; 404
    (``no_camera``) without a running camera or frame, or (``not_in_view``) when that
    region's board is not in view or the layout has no such region. Table token needed."""
    _require_viewing_token()
    region = request.args.get("region", "")
    if not region:
        raise ApiError(400, "malformed", "give ?region=<region name>, e.g. space:market")
    adapter = runtime().camera()
    if adapter is None or adapter.last_frame() is None:
        raise ApiError(404, "no_camera", "no running camera, or no frame yet")
    png = adapter.crop_png(region)
    if png is None:
        raise ApiError(404, "not_in_view", f"{region!r} is not in the camera's view")
    return Response(png, mimetype="image/png", headers={"Cache-Control": "no-store"})


def _save(cal: Any) -> Response:
    from vision import calibration

    calibration.save(calibration_path(), cal)
    return jsonify(_summary(cal))


@bp.post("/api/camera/region")
def post_region() -> Response:
    """``{"board": "main"|"farm", "key": "space:harvest", "rect": [x0, y0, x1, y1]}``."""
    require_table_token()
    from vision import calibration

    body = json_object()
    rect = body.get("rect")
    if not (isinstance(rect, list) and len(rect) == 4
            and all(isinstance(v, int | float) for v in rect)):
        raise ApiError(400, "bad_rect", "rect is [x0, y0, x1, y1] in board mm")
    try:
        cal = calibration.move_region(_load(), str(body.get("board")), str(body.get("key")),
                                      (rect[0], rect[1], rect[2], rect[3]))
    except calibration.CalibrationError as exc:
        raise ApiError(422, "bad_region", str(exc)) from None
    return _save(cal)


def _empty_dir() -> Path:
    return calibration_path().with_suffix(".empty")


EMPTY_FRAMES_MAX = 8  # frames of the empty table kept at most (the oldest dropped)
EMPTY_FRAMES_ENOUGH = 3


def _empty_state(learned: Any = None) -> dict[str, Any]:
    """The empty-board step: frames kept, the boards found in each, the boards found in
    none, and what to do next in words. ``learned``: the calibration just learned."""
    kept = sorted(_empty_dir().glob("*.json")) if _empty_dir().is_dir() else []
    found: dict[str, int] = {}
    for meta in kept:
        for name in json.loads(meta.read_text("utf-8"))["found"]:
            found[name] = found.get(name, 0) + 1
    boards = list(_load().layout.boards)
    missing = [n for n in boards if n not in found]
    n = len(kept)
    if learned is not None:
        from vision import calibration

        gone = calibration.not_learned(learned)
        say = ("Empty boards learned: " + ", ".join(b for b in boards if b not in gone) + "."
               + (f" Not learned: {', '.join(gone)} (the camera reads no board until it is "
                  "learned; a farm not on the table: ignore it)." if gone else ""))
    elif n == 0:
        say = ("Take every piece off the boards, keep hands out of the picture, and take "
               f"a frame; {EMPTY_FRAMES_ENOUGH} to 5 frames, moving nothing between them.")
    else:
        say = (f"{n} frame{'s' if n > 1 else ''} kept. "
               + (f"Not found in any frame yet: {', '.join(missing)}: uncover its markers "
                  "(a farm not on the table: ignore it). " if missing else
                  "Every board found. ")
               + ("Learn the empty boards now, or take another frame." if n >= EMPTY_FRAMES_ENOUGH
                  else f"Take {EMPTY_FRAMES_ENOUGH - n} more."))
    return {"frames": n, "found": found, "missing": missing, "ready": n >= 1,
            "boards": [[b, found.get(b, 0)] for b in boards],
            "enough": n >= EMPTY_FRAMES_ENOUGH, "say": say}


@bp.get("/api/camera/empty")
def get_empty() -> Response:
    """The empty-board step's state (``_empty_state``)."""
    return jsonify(_empty_state())


@bp.post("/api/camera/empty/frame")
def post_empty_frame() -> Response:
    """Keep the camera's frame now for ``calibrate empty`` (``<calibration>.empty/NN.png``)
    with the boards found in it. 422 (``not_in_view``) when the main board is not found in
    it: nothing kept."""
    require_table_token()
    import cv2

    from vision import calibration

    frame = _frame()
    found = calibration.find_boards(_load(), [frame])
    if "main" not in found:
        raise ApiError(422, "not_in_view", "the main board's corner markers are not all "
                       "seen in this frame: nothing kept (uncover them and take it again)")
    folder = _empty_dir()
    folder.mkdir(parents=True, exist_ok=True)
    kept = sorted(folder.glob("*.png"))
    for old in kept[: max(0, len(kept) - EMPTY_FRAMES_MAX + 1)]:
        old.unlink()
        old.with_suffix(".json").unlink(missing_ok=True)
    last = int(kept[-1].stem) if kept else 0
    path = folder / f"{last + 1:02d}.png"
    if not cv2.imwrite(str(path), frame):
        raise ApiError(500, "not_saved", f"cannot write {path}")
    path.with_suffix(".json").write_text(json.dumps({"found": sorted(found)}), "utf-8")
    return jsonify(_empty_state())


def _forget_empty_frames() -> None:
    folder = _empty_dir()
    if folder.is_dir():
        for path in folder.iterdir():
            if path.suffix in (".png", ".json"):
                path.unlink()


@bp.delete("/api/camera/empty/frames")
def delete_empty_frames() -> Response:
    """Forget the frames of the empty table kept so far."""
    require_table_token()
    _forget_empty_frames()
    return jsonify(_empty_state())


@bp.post("/api/camera/empty")
def post_empty() -> Response:
    """Learn the empty boards from the frames kept (``/api/camera/empty/frame``), each board
    from the frames that found it; with none kept, from the camera's frame now. The frames
    are then forgotten. The answer is the calibration's summary with ``empty``: the step's
    state (``say`` names the boards not learned)."""
    require_table_token()
    import cv2

    from vision import calibration

    kept = sorted(_empty_dir().glob("*.png")) if _empty_dir().is_dir() else []
    frames = [img for img in (cv2.imread(str(p)) for p in kept) if img is not None]
    try:
        cal = calibration.capture_empty(_load(), frames or [_frame()])
    except calibration.CalibrationError as exc:
        raise ApiError(422, "not_calibrated", str(exc)) from None
    calibration.save(calibration_path(), cal)
    _forget_empty_frames()
    return jsonify({**_summary(cal), "empty": _empty_state(cal)})


@bp.post("/api/camera/cubes")
def post_cubes() -> Response:
    """``{"placed": {"space:church": ["brown", 3], …}}``: learn the cube colours."""
    require_table_token()
    from vision import calibration

    placed = json_object().get("placed")
    shape = 'placed is {"space:church": ["brown", 3], …}'
    if not isinstance(placed, dict) or not placed:
        raise ApiError(400, "bad_placed", shape)
    for value in placed.values():
        if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)
                and isinstance(value[1], int) and not isinstance(value[1], bool)):
            raise ApiError(400, "bad_placed", shape)
    try:
        want = {str(k): (str(v[0]), int(v[1])) for k, v in placed.items()}
        cal = calibration.learn_cubes(_load(), _frame(), want)
    except (TypeError, ValueError, IndexError) as exc:
        raise ApiError(422, "not_learnt", str(exc)) from None
    return _save(cal)


def _lens_dir() -> Path:
    return calibration_path().with_suffix(".lens")


def _lens_photos() -> list[Path]:
    folder = _lens_dir()
    return sorted(folder.glob("*.png")) if folder.is_dir() else []


def _lens_shots() -> tuple[list[Any], tuple[int, int] | None]:
    """The sheet's corners in each photo kept, and the photos' size (None without any)."""
    import cv2
    import numpy as np

    from vision import lens_guide

    shots: list[Any] = []
    size: tuple[int, int] | None = None
    for path in _lens_photos():
        corners = path.with_suffix(".json")  # found when the photo was taken
        if corners.is_file():
            data = json.loads(corners.read_text("utf-8"))
            size = (int(data["size"][0]), int(data["size"][1]))
            shots.append(lens_guide.Shot(np.array(data["points"], np.float32)))
            continue
        img = cv2.imread(str(path))
        if img is None:
            continue
        size = (img.shape[1], img.shape[0])
        found = lens_guide.shot(img)
        if found is not None:
            shots.append(found)
    return shots, size


def _lens_state(size: tuple[int, int] | None = None) -> dict[str, Any]:
    from vision import lens_guide

    shots, kept = _lens_shots()
    size = size or kept or (1280, 720)
    out: dict[str, Any] = dict(lens_guide.advice(shots, size))
    lens = _load().lens
    out["lens"] = None if lens is None else {
        "rms_px": round(lens.rms, 3), "fov_deg": round(lens.hfov(), 1), "views": lens.views}
    return out


@bp.get("/api/camera/lens")
def get_lens() -> Response:
    """The lens step: photos kept, the cells of the view they cover, where to hold the sheet
    next (``say``), whether the lens can be computed, and the lens in force."""
    return jsonify(_lens_state())


@bp.get("/api/camera/lens/coverage.png")
def lens_coverage() -> Response:
    """The camera's frame now, dimmed, with the sheet's corners in every photo kept and the
    place to hold it next; table token needed (it shows the table)."""
    _require_viewing_token()
    import cv2

    from vision import lens_guide

    frame = _frame()
    shots, _size = _lens_shots()
    _ok, png = cv2.imencode(".png", lens_guide.picture(frame, shots))
    return Response(png.tobytes(), mimetype="image/png", headers={"Cache-Control": "no-store"})


@bp.post("/api/camera/lens/photo")
def post_lens_photo() -> Response:
    """Keep the camera's frame as a photo of the sheet. 422 ``sheet_not_found`` when the
    sheet is not seen well enough in it (nothing kept)."""
    require_table_token()
    import cv2

    from vision import lens_guide

    frame = _frame()
    found = lens_guide.shot(frame)
    if found is None:
        raise ApiError(422, "sheet_not_found", "the sheet is not seen well enough: hold all of "
                       "it in view, still, not too far (a third of the picture)")
    folder = _lens_dir()
    folder.mkdir(parents=True, exist_ok=True)
    n = len(_lens_photos())
    cv2.imwrite(str(folder / f"{n:02d}.png"), frame)
    (folder / f"{n:02d}.json").write_text(json.dumps(
        {"size": [frame.shape[1], frame.shape[0]], "points": found.points.tolist()}), "utf-8")
    return jsonify(_lens_state((frame.shape[1], frame.shape[0])))


@bp.post("/api/camera/lens/compute")
def post_lens_compute() -> Response:
    """Compute the lens from the photos kept and save it with the calibration. 422
    ``not_enough_photos`` when fewer than six show the sheet."""
    require_table_token()
    import cv2

    from vision import calibration, charuco
    from vision.lens import LensError

    frames = [img for img in (cv2.imread(str(p)) for p in _lens_photos()) if img is not None]
    try:
        lens = charuco.calibrate(frames)
    except LensError as exc:
        raise ApiError(422, "not_enough_photos", str(exc)) from None
    calibration.save(calibration_path(), calibration.set_lens(_load(), lens))
    return jsonify(_lens_state())


@bp.delete("/api/camera/lens/photos")
def delete_lens_photos() -> Response:
    """Forget the photos kept (the lens in force stays until a new one is computed)."""
    require_table_token()
    for path in _lens_photos():
        path.unlink()
        path.with_suffix(".json").unlink(missing_ok=True)
    return jsonify(_lens_state())
