"""Vision tests: real OpenCV on rendered tables, one thread (the machine is shared)."""

from __future__ import annotations

import cv2
import pytest

from vision.layout import Layout, load

cv2.setNumThreads(1)


@pytest.fixture(scope="session")
def layout() -> Layout:
    return load()
