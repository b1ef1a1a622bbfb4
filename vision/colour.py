"""Colour references and per-pixel classification in Lab, after local white balance.

Each region is first balanced against its own printed background (the median of its
pixels is background as long as pieces cover less than half of it), which removes the
light's colour and level and a shadow lying over the region. The balanced pixels are then
matched to the nearest reference (background or a piece colour) in Lab with lightness
weighted down, so a cube's darker side is still its colour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

L_WEIGHT = 0.35
UNKNOWN = 255


def to_lab(rgb: Sequence[Sequence[int]] | np.ndarray) -> np.ndarray:
    """RGB colours (n×3, 0–255) -> Lab float32 (n×3, OpenCV's 8-bit Lab scale)."""
    arr = np.asarray(rgb, np.uint8).reshape(1, -1, 3)[:, :, ::-1]
    out: np.ndarray = cv2.cvtColor(np.ascontiguousarray(arr), cv2.COLOR_BGR2LAB)[0]
    return out.astype(np.float32)


def gains(pixels: np.ndarray, ref_bgr: np.ndarray, tolerance: float = 0.2,
          limit: float = 4.0) -> np.ndarray:
    """Per-group gains (k×3) taking each group's background to its printed colour.

    ``pixels`` is k×n×3 uint8 (k regions or cells of n samples), ``ref_bgr`` k×3. A first
    gain from the median over all groups; then each group's own gain from its pixels that
    look like background under that first gain (so pieces covering much of a cell do not
    pull it), or the first gain if too few do.
    """
    ratio = ref_bgr[:, None, :].astype(np.float32) / np.maximum(pixels.astype(np.float32), 1.0)
    first = np.median(ratio[:, ::3].reshape(-1, 3), axis=0)
    rel = ratio / first
    lum = rel.mean(axis=2, keepdims=True)
    dev = np.abs(rel / lum - 1.0)
    close = ((np.maximum(np.maximum(dev[..., 0], dev[..., 1]), dev[..., 2]) < tolerance)
             & (np.abs(lum[..., 0] - 1) < 0.6))
    n = close.sum(axis=1)
    mean = (ratio * close[..., None]).sum(axis=1) / np.maximum(n, 1)[:, None]
    out = np.where((n >= 0.2 * pixels.shape[1])[:, None], mean, first)
    return np.clip(out, 1 / limit, limit).astype(np.float32)


def balance(pixels: np.ndarray, ref_bgr: np.ndarray, limit: float = 4.0) -> np.ndarray:
    """Scale one region's BGR pixels (n×3 uint8) so its background matches ``ref_bgr``."""
    sample = pixels[:: max(1, len(pixels) // 1500)]  # the statistic needs ~1500 pixels
    g: np.ndarray = gains(sample[None], np.asarray(ref_bgr, np.float32)[None], limit=limit)[0]
    return apply_gain(pixels, g)


def apply_gain(pixels: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """BGR uint8 pixels (…×3) times a per-channel gain, through a lookup table."""
    ramp = np.arange(256, dtype=np.float32)[:, None] * gain[None, :]
    table = np.minimum(np.maximum(ramp, 0), 255).astype(np.uint8).reshape(1, 256, 3)
    flat = np.ascontiguousarray(pixels.reshape(1, -1, 3))
    out: np.ndarray = cv2.LUT(flat, table).reshape(pixels.shape)
    return out


def classify(lab: np.ndarray, protos: np.ndarray, max_dist: float = 40.0,
             l_weight: float = L_WEIGHT) -> np.ndarray:
    """Index of the nearest prototype for each Lab pixel (n×3), UNKNOWN when none is near."""
    w = np.array([l_weight, 1.0, 1.0], np.float32)
    # (numpy's reductions and broadcasts over short axes cost more than the arithmetic:
    # each channel's weighted square is taken prototype by sample, the channels summed
    # and the prototypes compared one by one: the same numbers and the same first
    # nearest as the squares over (samples, prototypes, channels), ``sum``, ``argmin``
    # and ``min``)
    sq = [((lab[None, :, c] - protos[:, c, None]) * w[c]) ** 2 for c in range(3)]
    dist = sq[0] + sq[1] + sq[2]  # prototypes × samples
    idx = np.zeros(lab.shape[0], np.uint8)
    best = dist[0].copy()
    for k in range(1, dist.shape[0]):
        nearer = dist[k] < best
        idx[nearer] = k
        np.minimum(best, dist[k], out=best)
    idx[best > max_dist * max_dist] = UNKNOWN
    return idx


def lut(protos: np.ndarray, max_dist: float = 40.0, l_weight: float = L_WEIGHT) -> np.ndarray:
    """``classify`` for every 5-bit-per-channel BGR colour: index with ``lut_index``."""
    q = (np.arange(32, dtype=np.uint8) << 3) + 4
    b, g, r = np.meshgrid(q, q, q, indexing="ij")
    bgr = np.stack([b, g, r], axis=-1).reshape(1, -1, 3)
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)[0].astype(np.float32)
    return classify(lab, protos, max_dist, l_weight)


def lut_index(bgr: np.ndarray) -> np.ndarray:
    """The LUT index of BGR uint8 pixels (…×3)."""
    p = bgr.astype(np.uint16) >> 3
    return (p[..., 0] << 10) | (p[..., 1] << 5) | p[..., 2]


def palette_lab(colours: Mapping[str, Sequence[int]], names: Sequence[str]) -> np.ndarray:
    """The Lab references of the named colours, in that order."""
    return to_lab([colours[n] for n in names])


def apply_gain_keeping_hue(pixels: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """``apply_gain``, but a pixel the gain takes past 255 is scaled down whole (its
    channels' ratios kept) instead of clipped channel by channel: clipping only the red
    of an orange cube's lit face under a large gain turns it yellow. A clip by the camera
    itself (a channel at 255 in ``pixels``) is not undone: that colour is lost."""
    out = apply_gain(pixels, gain)
    # (np.max over the last axis of 3 is ten times slower than two np.maximum)
    over = np.maximum(np.maximum(out[..., 0], out[..., 1]), out[..., 2]) == 255
    if over.any():
        hot = pixels[over].astype(np.float32) * gain
        hot *= (255.0 / np.maximum(hot.max(axis=-1), 255.0))[:, None]
        out[over] = hot.astype(np.uint8)
    return out
