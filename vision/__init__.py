"""Board vision (OpenCV, no dependency on ``companion``): the layout as data, the synthetic
renderer, marker geometry, the reader, settling, frame sources and calibration
(``docs/vision.md``)."""
