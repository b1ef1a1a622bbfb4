"""Board vision (OpenCV): not built yet; comes with the camera issue (see hardware.md)."""
