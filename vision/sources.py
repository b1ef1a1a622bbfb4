"""Where frames come from: one small interface over cameras, files and the renderer.

A ``Source`` is opened, gives ``read() -> Frame | None`` (None = no frame now: the device
went away or the file ended) and is closed. ``open_source(spec)`` understands:

* ``0``, ``1``… or ``/dev/video0`` — a V4L2/USB webcam through ``cv2.VideoCapture``;
* ``picamera`` — the Pi camera through picamera2 (only where picamera2 is installed);
* a video file (``.mp4``, ``.avi``, ``.mkv``…) — read once, in order;
* a folder of images — read in name order;
* ``sim`` — frames from the synthetic renderer (see ``SimSource``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


class SourceError(OSError):
    """A source that cannot be opened (no such device, file or folder; no picamera2)."""


@dataclass
class Frame:
    image: np.ndarray  # BGR uint8
    t: float  # monotonic seconds


class Source(Protocol):
    name: str

    def open(self) -> None:
        """Open the device; raises SourceError if it is not there."""

    def read(self) -> Frame | None:
        """The next frame, or None if there is none now (device gone, file ended)."""

    def close(self) -> None:
        """Release the device; idempotent."""


class CaptureSource:
    """A webcam (index or /dev/videoN) or a video file through ``cv2.VideoCapture``."""

    def __init__(self, spec: int | str, width: int = 1280, height: int = 720) -> None:
        self.spec = spec
        self.name = f"camera:{spec}"
        self.size = (width, height)
        self._cap: Any = None

    def open(self) -> None:
        cap = cv2.VideoCapture(self.spec)
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"cannot open {self.spec!r}")
        if isinstance(self.spec, int) or str(self.spec).startswith("/dev/"):
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap

    def read(self) -> Frame | None:
        if self._cap is None:
            return None
        ok, image = self._cap.read()
        return Frame(image, time.monotonic()) if ok and image is not None else None

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class PicameraSource:
    """The Raspberry Pi camera through picamera2 (imported only when opened)."""

    def __init__(self, width: int = 1280, height: int = 720) -> None:
        self.name = "camera:picamera"
        self.size = (width, height)
        self._cam: Any = None

    def open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise SourceError("picamera2 is not installed (apt install python3-picamera2)") \
                from exc
        try:
            cam = Picamera2()
            cam.configure(cam.create_video_configuration(
                main={"size": self.size, "format": "RGB888"}))
            cam.start()
        except Exception as exc:  # the library raises many kinds for a missing camera
            raise SourceError(f"picamera: {exc}") from exc
        self._cam = cam

    def read(self) -> Frame | None:
        if self._cam is None:
            return None
        try:
            image = self._cam.capture_array()  # "RGB888" is BGR in memory order
        except Exception:
            return None
        return Frame(np.ascontiguousarray(image[:, :, :3]), time.monotonic())

    def close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            finally:
                self._cam = None


class FolderSource:
    """The images of a folder in name order; ``fps`` spaces their timestamps."""

    def __init__(self, folder: Path, fps: float = 10.0) -> None:
        self.folder = folder
        self.name = f"folder:{folder.name}"
        self.fps = fps
        self._files: Iterator[Path] | None = None
        self._t0 = 0.0
        self._n = 0

    def open(self) -> None:
        if not self.folder.is_dir():
            raise SourceError(f"no folder {self.folder}")
        files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        self._files = iter(files)
        self._t0 = time.monotonic()
        self._n = 0

    def read(self) -> Frame | None:
        if self._files is None:
            return None
        for path in self._files:
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is not None:
                self._n += 1
                return Frame(image, self._t0 + self._n / self.fps)
        return None

    def close(self) -> None:
        self._files = None


class SimSource:
    """Frames from a callable (usually the synthetic renderer): ``make(n) -> image|None``.

    ``None`` from ``make`` stands for a camera that is gone; the source can be reopened.
    ``fps`` gives the timestamps (simulated time, so tests need not sleep).
    """

    def __init__(self, make: Callable[[int], np.ndarray | None], fps: float = 15.0,
                 name: str = "sim:camera", available: Callable[[], bool] | None = None) -> None:
        self.make = make
        self.fps = fps
        self.name = name
        self.available = available or (lambda: True)
        self._n = 0
        self._open = False

    def open(self) -> None:
        if not self.available():
            raise SourceError(f"{self.name} is not there")
        self._open = True

    def read(self) -> Frame | None:
        if not self._open:
            return None
        image = self.make(self._n)
        if image is None:
            self._open = False
            return None
        self._n += 1
        return Frame(image, self._n / self.fps)

    def close(self) -> None:
        self._open = False


def open_source(spec: str, fps: float = 10.0) -> Source:
    """The source for a command-line spec (see the module docstring); not yet opened.

    Raises SourceError for a path that does not exist.
    """
    if spec.isdigit():
        return CaptureSource(int(spec))
    if spec.startswith("/dev/video"):
        return CaptureSource(spec)
    if spec == "picamera":
        return PicameraSource()
    if spec == "sim":
        from .layout import load
        from .render import Scene, render
        from .table import TableView

        lay = load()
        empty = TableView()
        return SimSource(lambda n: render(lay, empty, Scene(seed=n)).image, fps=fps)
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path, fps)
    if path.is_file():
        return CaptureSource(str(path))
    raise SourceError(f"no camera, file or folder {spec!r}")
