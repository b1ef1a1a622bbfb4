"""The box check: the owner confirms or corrects each unverified printed value once.

Answers are stored as an overlay file (JSON: key → value) used by every later game. Its
place: ``--overlay``, else ``$VILLAGE_COMPANION_HOME/boxcheck.json``, else
``~/.config/village-companion/boxcheck.json``.

The owner also says which boxes they own (the base game always; *Port*, *Life goals*),
stored beside it (``boxcheck-boxes.json``, a list of module names). Only the values of the
boxes owned are asked, and a new game offers only their modules; until the owner answers,
every box is asked about and offered.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, TextIO

from companion.paths import config_dir
from companion.village.box_values import (
    check_value,
    expectation,
    items_with_overlay,
    module_values,
)
from companion.village.data import BoardDataError
from companion.village.modules.module_data import module_of

BOXES = {"port": "Le Port", "life_goals": "Objectifs de vie (life goals)"}
"""The boxes besides the base game, by module name, with the name on the box."""


def overlay_path(override: str | None = None) -> Path:
    if override:
        return Path(override)
    return config_dir() / "boxcheck.json"


def boxes_path(overlay: Path) -> Path:
    """Where the "boxes owned" answer lives: beside the overlay file."""
    return overlay.with_name(overlay.stem + "-boxes.json")


def check_boxes(boxes: Any) -> tuple[str, ...]:
    """The boxes named (``base`` may be named and is implied), in a fixed order. Raises
    BoardDataError unless ``boxes`` is a list of ``base``, ``port``, ``life_goals``."""
    if not isinstance(boxes, list) or not all(isinstance(b, str) for b in boxes):
        raise BoardDataError('the boxes owned are a list of names: "base", "port", "life_goals"')
    unknown = sorted(set(boxes) - {"base", *BOXES})
    if unknown:
        raise BoardDataError(
            f"no box is called {', '.join(map(repr, unknown))}; the boxes are "
            '"base", "port" (Port) and "life_goals" (Life goals)'
        )
    return tuple(b for b in BOXES if b in boxes)


def load_boxes(path: Path) -> tuple[str, ...] | None:
    """The boxes owned besides the base game, as answered at ``path`` (None: never
    answered). Raises BoardDataError if the file is unreadable or malformed."""
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise BoardDataError(f"cannot read the boxes owned {path}: {exc}") from exc
    return check_boxes(data)


def owned(answer: tuple[str, ...] | None) -> tuple[str, ...]:
    """The modules whose values are asked and offered: those answered, else every box."""
    return tuple(BOXES) if answer is None else answer


def save_boxes(path: Path, boxes: tuple[str, ...]) -> None:
    """Write the boxes owned atomically. Raises BoardDataError for a bad name,
    companion.store.StorageUnavailable if the file cannot be written."""
    _write(path, list(check_boxes(list(boxes))))


def for_new_game(
    overlay: dict[str, Any], answer: tuple[str, ...] | None, modules: list[str]
) -> dict[str, Any]:
    """The printed values of ``modules`` for a new game: shipped, with the owner's answers.
    Raises BoardDataError naming a module of a box the owner has said they do not own."""
    missing = [m for m in modules if m in BOXES and m not in owned(answer)]
    if missing:
        names = ", ".join(BOXES[m] for m in missing)
        raise BoardDataError(f"the box check says this table does not own {names}")
    return module_values(overlay, modules)


def load_overlay(path: Path) -> dict[str, Any]:
    """The saved answers ({} when none). Raises BoardDataError if the file is unreadable."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise BoardDataError(f"cannot read box check answers {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise BoardDataError(f"{path}: expected a JSON object")
    return data


def load_overlay_lenient(path: Path) -> tuple[dict[str, Any], list[str]]:
    """The saved answers that can be used, and a sentence for each that cannot (an
    unreadable file, an unknown key, a value of the wrong shape): a bad answer file never
    stops the table, it falls back to the shipped values for what it cannot use."""
    try:
        raw = load_overlay(path)
    except BoardDataError as exc:
        return {}, [str(exc)]
    overlay: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in raw.items():
        try:
            check_value(key, value)
            items_with_overlay({**overlay, key: value}, BOXES)
        except BoardDataError as exc:
            problems.append(f"the saved answer for {key} is not used: {exc}")
            continue
        overlay[key] = value
    return overlay, problems


def save_overlay(path: Path, overlay: dict[str, Any]) -> None:
    """Write the answers atomically (validated first).

    Raises:
        BoardDataError: a bad answer. companion.store.StorageUnavailable (StorageFull,
        StorageReadOnly): the file cannot be written; the previous answers are kept.
    """
    items_with_overlay(overlay, BOXES)
    _write(path, overlay)


def _write(path: Path, data: Any) -> None:
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".boxcheck-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, ensure_ascii=False)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        from companion.store import StorageUnavailable, storage_error

        error = storage_error(path, exc)
        assert isinstance(error, StorageUnavailable)
        raise error from exc


def refuse_unowned(key: str, boxes: tuple[str, ...]) -> None:
    """Raise BoardDataError if ``key`` is printed in a box not among ``boxes``."""
    module = module_of(key)
    if module is not None and module not in boxes and module in BOXES:
        raise BoardDataError(
            f"{key} is printed in the {BOXES[module]} box, which you have not said you own"
        )


def set_answer(
    overlay: dict[str, Any], key: str, value: Any, boxes: tuple[str, ...] = tuple(BOXES)
) -> dict[str, Any]:
    """A new overlay with ``key`` answered; raises BoardDataError if key or value is bad or
    the value is on a box not among ``boxes`` (the boxes owned)."""
    refuse_unowned(key, boxes)
    new = dict(overlay)
    new[key] = value
    items_with_overlay(new, BOXES)
    return new


def status(
    overlay: dict[str, Any], boxes: tuple[str, ...] = tuple(BOXES)
) -> list[dict[str, Any]]:
    """Every value of the base game and of ``boxes`` (default: every box) with its
    confidence, source, question and whether it is verified. Raises BoardDataError as
    `companion.village.data.items_with_overlay`."""
    return [
        {
            "key": i.key,
            "value": i.value,
            "confidence": i.confidence,
            "verified": i.verified,
            "source": i.source,
            "question": i.question,
            "title": i.title,
            "look": i.look,
            "expected": expectation(i.key),
            "schema": i.schema,
            "box": BOXES.get(module_of(i.key) or "", "Village"),
        }
        for i in items_with_overlay(overlay, boxes).values()
    ]


def ask_boxes(path: Path, stdin: TextIO, stdout: TextIO) -> tuple[str, ...] | None:
    """Ask which boxes the owner has (saved beside ``path``); None if they stop (``q``)."""
    names = ", ".join(f"{m} ({label})" for m, label in BOXES.items())
    while True:
        stdout.write(
            f"Which boxes besides Village do you own? {names}; "
            "comma-separated, Enter = none, q = quit: "
        )
        stdout.flush()
        line = stdin.readline()
        if not line or line.strip() == "q":
            return None
        try:
            boxes = check_boxes([b.strip() for b in line.split(",") if b.strip()])
        except BoardDataError as exc:
            stdout.write(f"  not accepted: {exc}\n")
            continue
        save_boxes(boxes_path(path), boxes)
        return boxes


def interactive(path: Path, stdin: TextIO, stdout: TextIO) -> int:
    """Ask which boxes the owner has (when never answered), then about each unverified
    value of those boxes: Enter keeps it unverified, ``y`` confirms it as shown, any JSON
    corrects it, ``q`` stops. Saves after each answer. Raises BoardDataError for an
    unreadable answer file."""
    overlay = load_overlay(path)
    boxes = load_boxes(boxes_path(path))
    if boxes is None:
        boxes = ask_boxes(path, stdin, stdout)
        if boxes is None:
            return 0
    todo = [s for s in status(overlay, boxes) if not s["verified"]]
    stdout.write(f"{len(todo)} value(s) to check against your box. Answers go to {path}\n")
    for item in todo:
        where = f"[{item['key']}] ({item['confidence']}; {item['source']})"
        stdout.write(f"\n{item['title']} {where}\n")
        stdout.write(f"{item['look']}\n  shipped: {json.dumps(item['value'])}\n")
        stdout.write(f"  expected: {item['expected']}\n")
        while True:
            stdout.write(
                "  y = as printed, Enter = skip, q = quit, or type the right value (JSON): "
            )
            stdout.flush()
            line = stdin.readline()
            answer = line.strip()
            if not line or answer == "q":
                return 0
            if not answer:
                break
            try:
                value = item["value"] if answer == "y" else json.loads(answer)
                overlay = set_answer(overlay, item["key"], value, boxes)
            except (json.JSONDecodeError, BoardDataError) as exc:
                stdout.write(f"  not accepted: {exc}\n")
                continue
            save_overlay(path, overlay)
            stdout.write("  saved.\n")
            break
    return 0


class BoxAnswers:
    """The owner's box-check answers as the running process holds them: read leniently at
    start (a file that cannot be used, wholly or in part, leaves the shipped values and a
    sentence in `problems`), changed by the box-check page and saved at once. Used by every
    game started afterwards."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = overlay_path(None if path is None else str(path))
        overlay, problems = load_overlay_lenient(self.path)
        answer: tuple[str, ...] | None
        try:
            answer = load_boxes(boxes_path(self.path))
        except BoardDataError as exc:  # an unreadable answer: every box, as if never answered
            problems = [*problems, str(exc)]
            answer = None
        self.overlay: dict[str, Any] = overlay
        self.boxes_answer: tuple[str, ...] | None = answer
        """The boxes the owner said they own besides Village (None: never said)."""
        self.problems: list[str] = problems
        """Why a saved answer is not used (empty once the owner answers again)."""

    def owned(self) -> tuple[str, ...]:
        """The boxes owned besides Village (every box until the owner says)."""
        return owned(self.boxes_answer)

    def set_boxes(self, boxes: tuple[str, ...]) -> None:
        """Save which boxes the owner has. Raises what `save_boxes` raises."""
        save_boxes(boxes_path(self.path), boxes)
        self.boxes_answer = tuple(boxes)

    def set_overlay(self, overlay: dict[str, Any]) -> None:
        """Save the answers (validated first). Raises what `save_overlay` raises."""
        save_overlay(self.path, overlay)
        self.overlay = overlay
        self.problems = []
