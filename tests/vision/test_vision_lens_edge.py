"""A wide lens sees past the pinhole picture's edges: what lies there is drawn, not cut."""

from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import MarkerTracker
from vision.layout import Layout
from vision.lens import Lens
from vision.render import TABLE_MM, Scene, real_camera, render
from vision.table import TableView

# the bench's real-ordinary table 1 of seed 5: a 90° lens (k1 -0.3) puts the red farm's
# marker at the frame's left edge, where its ideal (undistorted) pixels lie left of x = 0
_WIDE = Scene(seed=486252732, real=True, fov=90.0, k1=-0.3, k2=0.09, tilt=1.5685711651689642,
              rotation=-2.968156838524904, blur=1.0267660501539386, noise=2.5,
              light=(1.108861074106353, 0.9789557256974706, 0.7174045717088238),
              level=0.9297835564330444, light_deg=272.3104881376979,
              gradient=0.06017190356442207, vignetting=0.14693921899391443, jpeg=87)


def test_the_table_beyond_the_pinhole_frame_is_drawn(layout: Layout) -> None:
    """A barrel lens bends points from beyond the pinhole frame into the picture: the
    frame's pixels that look at the table there (ideal x < 0) show the table and its
    boards, brighter than the dark beyond the table's edge."""
    shot = render(layout, TableView(), _WIDE)
    lens, cam, _eye = real_camera(_WIDE)
    ys, xs = np.mgrid[60:660:4, 0:220:2]
    px = np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float32)
    ideal = lens.undistort(px)
    mm = cv2.perspectiveTransform(ideal[None], np.linalg.inv(cam))[0]
    tw, th = TABLE_MM
    on = ((mm[:, 0] > 3) & (mm[:, 0] < tw - 3) & (mm[:, 1] > 3) & (mm[:, 1] < th - 3)
          & (ideal[:, 0] < -1))
    off = mm[:, 0] < -10
    assert on.sum() > 100 and off.sum() > 100  # the premise: both are in the frame
    red = shot.image[ys.ravel(), xs.ravel(), 2].astype(float)
    assert np.median(red[on]) > 1.3 * np.median(red[off]), (np.median(red[on]),
                                                            np.median(red[off]))


def test_the_farm_at_the_frame_edge_is_found(layout: Layout) -> None:
    """The red farm's marker, at the left edge of that frame, decodes."""
    shot = render(layout, TableView(), _WIDE)
    assert isinstance(shot.lens, Lens)
    tracker = MarkerTracker(layout, lens=shot.lens)
    geo = tracker.update(shot.image)
    assert 10 in tracker.corners
    assert "farm:red" in geo.boards
