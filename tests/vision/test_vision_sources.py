"""Frame sources: a folder of images, a video file, the renderer; missing devices."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.layout import Layout
from vision.read import BoardReader
from vision.render import Scene, render
from vision.sources import CaptureSource, FolderSource, SourceError, open_source
from vision.table import from_dict


def test_folder_in_name_order_then_none(tmp_path: Path) -> None:
    for name, value in (("b.png", 20), ("a.png", 10), ("c.jpg", 30)):
        cv2.imwrite(str(tmp_path / name), np.full((8, 8, 3), value, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    src = open_source(str(tmp_path))
    assert isinstance(src, FolderSource)
    src.open()
    got = [src.read() for _ in range(4)]
    assert [int(f.image[0, 0, 0]) for f in got[:3] if f] == [10, 20, 30]
    assert got[3] is None
    assert got[0] is not None and got[1] is not None and got[1].t > got[0].t
    src.close()


def test_video_file_frames_are_read_by_the_reader(tmp_path: Path, layout: Layout) -> None:
    path = tmp_path / "table.avi"
    view = from_dict({"space:crafts": {"orange": 2}})
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10, (1280, 720))
    assert writer.isOpened()
    for i in range(3):
        writer.write(render(layout, view, Scene(seed=i, camera=0, pieces=0)).image)
    writer.release()
    src = open_source(str(path))
    assert isinstance(src, CaptureSource)
    src.open()
    reader = BoardReader(layout)
    frames = 0
    while (frame := src.read()) is not None:
        reading = reader.read(frame.image, frame.t)
        assert reading.cubes["space:crafts"] == {"orange": 2}
        frames += 1
    src.close()
    assert frames == 3


def test_missing_things_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SourceError):
        open_source(str(tmp_path / "nothing-here"))
    with pytest.raises(SourceError):
        FolderSource(tmp_path / "nothing-here").open()
    with pytest.raises(SourceError):
        CaptureSource("/dev/video99").open()


def test_sim_source_renders_the_table() -> None:
    src = open_source("sim")
    src.open()
    frame = src.read()
    assert frame is not None and frame.image.shape == (720, 1280, 3)
