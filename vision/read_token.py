"""The first-player tokens: where the First Player and Next First Player markers lie.

Seed 000, set-up steps 8 and 13: the Next First Player marker waits on its cell of the
council chamber; the First Player marker is with the round's first player. The council's
first privilege takes the Next marker (« prenez le marqueur Prochain Premier Joueur »); at
the next round its taker takes the First marker and puts the Next one back on its cell.

The layout names the places as ``token`` regions: ``first_player:home`` (the cell of the
council chamber) and ``first_player:<colour>`` beside each farm. ``TokenReader.read``
samples them at 1 mm, balances them under the light that makes the board's markers' white
paper white (the reader's gain; without one, each region to its printed colour) and counts
the samples nearest each token's colour (Lab); a token lies in a region when it covers at least
``COVER`` of its disc there. The reading is the ``first_player`` track of
``docs/sensing.md``: ``home`` on cell 1 while the Next marker is on its cell, else 0; each
farm's colour on cell 1 for the holder (the Next marker's if taken, else the First
marker's), 0 for the others. A table where a token is seen in no place or in two (a hand
over it, a token in someone's hand) gives no reading: ``None``, and the caller says the
track is uncertain once the tokens have been read (a table where they were never seen,
the tokens not used, is not held up by them).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import cv2
import numpy as np

from .colour import apply_gain, balance, classify, to_lab
from .geometry import Geometry, project
from .layout import Board, Layout, Region
from .lens import Lens
from .read_parts import COARSE_STEP, _grid, median0

TRACK = "first_player"
HOME = "home"
STEP_MM = 1.0
COVER = 0.4  # share of a token's disc that must be seen in the region
MAX_DIST = 45.0  # Lab distance beyond which a sample is nobody's colour
EDGE_MM = 8.0  # the board's rim: the hand test keeps it, token or not


class TokenReader:
    """Reads the ``token`` regions of a layout from frames (one per ``BoardReader``)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.regions: dict[str, list[Region]] = {
            name: [r for r in b.regions if r.kind == "token"]
            for name, b in layout.boards.items()}
        self._protos: dict[str, np.ndarray] = {}
        for b in layout.boards.values():
            for r in b.regions:
                if r.kind == "token":
                    self._protos[r.name] = to_lab([r.print_rgb, layout.token_rgb["first"],
                                                   layout.token_rgb["next"]])
        disc = math.pi * (layout.token_mm / 2) ** 2
        self.need = COVER * disc / (STEP_MM * STEP_MM)
        self._plan: tuple[int, dict[str, tuple[int, int, str]], np.ndarray, np.ndarray
                          ] | None = None
        self.ever = False  # read both tokens once: a table without them is not uncertain

    @staticmethod
    def hand_mask(board: Board) -> np.ndarray:
        """The cells of the reader's hand grid the token regions cover (and one around
        them), but those within
        ``EDGE_MM`` of the board's edge: a token is not a hand (two side by side made a
        blob taken for one), and a hand over a token is told by the token not being seen
        where it can be (``read`` gives None); a hand reaching in over a token at the
        board's edge still touches the edge, as a hand must to be one when small."""
        g = _grid((0, 0, *board.size_mm), COARSE_STEP)
        w, h = board.size_mm
        x, y = g[..., 0], g[..., 1]
        inner = (x >= EDGE_MM) & (x < w - EDGE_MM) & (y >= EDGE_MM) & (y < h - EDGE_MM)
        mask = np.zeros(g.shape[:2], bool)
        for r in board.regions:
            if r.kind == "token":
                x0, y0, x1, y1 = r.rect
                m = COARSE_STEP  # and a cell around it: a token's shadow
                mask |= (x >= x0 - m) & (x < x1 + m) & (y >= y0 - m) & (y < y1 + m)
        return mask & inner

    def _build(self, geometry: Geometry, lens: Lens | None) -> None:
        chunks: list[np.ndarray] = []
        slices: dict[str, tuple[int, int, str]] = {}
        at = 0
        for name, hom in geometry.boards.items():
            for r in self.regions.get(name, []):
                x0, y0, x1, y1 = r.rect
                xs = np.arange(x0 + STEP_MM / 2, x1, STEP_MM, dtype=np.float32)
                ys = np.arange(y0 + STEP_MM / 2, y1, STEP_MM, dtype=np.float32)
                gx, gy = np.meshgrid(xs, ys)
                pts = project(hom, np.stack([gx.ravel(), gy.ravel()], axis=1), lens)
                chunks.append(pts)
                slices[r.name] = (at, at + len(pts), name)
                at += len(pts)
        pts_all = np.concatenate(chunks) if chunks else np.zeros((0, 2), np.float32)
        m = pts_all.reshape(1, -1, 2).astype(np.float32)
        map1, map2 = cv2.convertMaps(m, None, cv2.CV_16SC2)  # type: ignore[call-overload]
        self._plan = (geometry.version, slices, map1, map2)

    def seen(self, frame: np.ndarray, geometry: Geometry, lens: Lens | None = None,
             white: Mapping[str, np.ndarray] | None = None,
             light: Mapping[str, np.ndarray] | None = None) -> dict[str, set[str]]:
        """Which tokens (``first``, ``next``) each token region shows now (regions of the
        boards found only). ``white``: per board, the gain that makes its markers' white
        paper white (the reader's); without it each region is balanced to its print."""
        if self._plan is None or self._plan[0] != geometry.version:
            self._build(geometry, lens)
        assert self._plan is not None
        _v, slices, map1, map2 = self._plan
        out: dict[str, set[str]] = {}
        if not slices:
            return out
        samples = cv2.remap(frame, map1, map2, cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))[0]
        for name, (a, b, board) in slices.items():
            protos = self._protos[name]
            raw = np.ascontiguousarray(samples[a:b])
            gain = (white or {}).get(board)
            px = (apply_gain(raw, gain) if gain is not None
                  else balance(raw, np.asarray(self._print_bgr(name), np.float32)))
            lab = cv2.cvtColor(px.reshape(1, -1, 3), cv2.COLOR_BGR2LAB)[0].astype(np.float32)
            here = (light or {}).get(board)
            if gain is not None and here is not None:
                # the print as this frame shows it under the same gain: the empty board's
                # print (``calibrate empty``'s capture, raw) under this frame's light
                # against the empty board's (the board's median change), then the gain
                bgr = np.clip(np.asarray(self._print_bgr(name), np.float32) * here * gain,
                              0, 255)
                protos = np.concatenate([to_lab([bgr[::-1]]), protos[1:]])
                # then the print as the median of what this reading left to no token (a
                # dim, blurred frame's print can lie far from the learnt one under the
                # gain; the tokens, both on one farm, can cover half the region)
                first = classify(lab, protos, MAX_DIST)
                rest = lab[(first != 1) & (first != 2)]
                if len(rest) >= max(1, len(lab) // 3):
                    protos = np.concatenate([median0(rest)[None], protos[1:]])
            idx = classify(lab, protos, MAX_DIST)
            out[name] = {tok for k, tok in ((1, "first"), (2, "next"))
                         if int((idx == k).sum()) >= self.need}
        return out

    def _print_bgr(self, name: str) -> tuple[int, int, int]:
        for regions in self.regions.values():
            for r in regions:
                if r.name == name:
                    return (r.print_rgb[2], r.print_rgb[1], r.print_rgb[0])
        raise KeyError(name)

    def read(self, frame: np.ndarray, geometry: Geometry, lens: Lens | None = None,
             white: Mapping[str, np.ndarray] | None = None,
             light: Mapping[str, np.ndarray] | None = None) -> dict[str, int] | None:
        """The ``first_player`` track now (marker → cell), or None when the tokens are not
        each seen in exactly one place (or the main board is not found). ``ever`` says
        whether they have been read once (a table played without them is not uncertain).
        ``light``: per board, this frame's light against the empty board's (BGR), which
        with ``white`` gives each region's print as this frame shows it."""
        out = self._read(frame, geometry, lens, white, light)
        self.ever = self.ever or out is not None
        return out

    def _read(self, frame: np.ndarray, geometry: Geometry, lens: Lens | None,
              white: Mapping[str, np.ndarray] | None,
              light: Mapping[str, np.ndarray] | None) -> dict[str, int] | None:
        seen = self.seen(frame, geometry, lens, white, light)
        home = TRACK + ":" + HOME
        if home not in seen:
            return None
        firsts = [n for n, toks in seen.items() if "first" in toks]
        nexts = [n for n, toks in seen.items() if "next" in toks]
        if len(firsts) != 1 or len(nexts) != 1 or firsts[0] == home:
            return None
        holder = firsts[0] if nexts[0] == home else nexts[0]
        out = {HOME: int(nexts[0] == home)}
        for name in seen:
            if name != home:
                out[name.partition(":")[2]] = int(name == holder)
        return out
