"""How often the real camera pipeline misses a hand: the missed-hand rate of the simulated
table's behaviour model (``HAND_MISS`` in ``companion/sim/behaviour.py``).

    PYTHONPATH=$PWD python3 scripts/hand_recall.py [--images 24] [--seed 1]

On the vision bench's hand images (conditions ``real-hands`` and ``real-pale-hand``: the
real-table renders with one hand and arm, read by the calibrated reader exactly as
``companion vision-bench`` reads them), counts the camera regions the reconciler knows
(``companion.sim.table.PRODUCT_CAMERA``) that the rendered hand truly covers (≥ 3 px of
hand, the renderer's own ``covered``), and how many of them the reader reports occluded or
uncertain (what ``companion/sensors/camera.py`` sends as ``Occluded``, the first-player
track as its regions). The region under the fingertip (the covered region whose centre is
nearest the tip) is the one a hand acts on: its rate is the behaviour model's. Still
images only: a hand moving between two frames is not measured here.
"""

from __future__ import annotations

import argparse
import json

from companion.sensors.camera import _regions
from companion.sim.table import PRODUCT_CAMERA
from vision.bench import _table
from vision.layout import load
from vision.render import on_table


def _camera_region(name: str) -> bool:
    return name == "prestige" or name.startswith(PRODUCT_CAMERA)


def measure(condition: str, images: int, seed: int) -> dict[str, object]:
    """Counts for one condition (see the module docstring)."""
    lay = load()
    covered = reported = tips = tips_reported = 0
    missed: list[str] = []
    for i in range(images):
        _g, scene, _players, _view, shot, reader = _table(lay, condition, seed, i)
        reading = reader.read(shot.image)
        names = {k.split("/", 1)[1].partition("#")[0] for k in shot.covered}
        names = {n for n in names if _camera_region(n)}
        if not names:
            continue
        seen = _regions(frozenset(reading.occluded | reading.uncertain))
        covered += len(names)
        reported += len(names & seen)
        tip = scene.hands[0]
        near = sorted((((c[0] - tip[0]) ** 2 + (c[1] - tip[1]) ** 2), n) for n in names
                      if (c := on_table(lay, n, scene)) is not None)
        if near:
            tips += 1
            tips_reported += near[0][1] in seen
            if near[0][1] not in seen:
                missed.append(f"image {i}: {near[0][1]} (fingertip)")
        missed += [f"image {i}: {n}" for n in sorted(names - seen) if not near or n != near[0][1]]
    return {"covered": covered, "reported": reported, "fingertip": tips,
            "fingertip_reported": tips_reported, "missed": missed}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--images", type=int, default=24)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    out = {c: measure(c, args.images, args.seed) for c in ("real-hands", "real-pale-hand")}
    tips = sum(int(r["fingertip"]) for r in out.values())  # type: ignore[call-overload]
    seen = sum(int(r["fingertip_reported"]) for r in out.values())  # type: ignore[call-overload]
    out["fingertip_missed_rate"] = round((tips - seen) / max(tips, 1), 4)  # type: ignore[assignment]
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
