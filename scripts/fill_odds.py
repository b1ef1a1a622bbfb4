"""How sure is a green-bag fill the camera read right? The read fill's posterior against
every legal fill one cube's colour away (the truth, read with one swap misread), with the
prior odds of the bag's contents (multivariate hypergeometric over
`companion.village.chance.bag_after_fill`) and the camera's cube rate.

    PYTHONPATH=$PWD python3 scripts/fill_odds.py [--accuracy 0.9583] [--seeds 5]

The accuracy defaults to ``real-ordinary``'s cubes row of docs/vision-bench.json; a misread
is a swap half of the time (the simulated camera's `SimTable._wrong`), of one of the space's
colours into one of the four others; a count misread makes an illegal fill (asked anyway).
"""
import argparse
import json
import random
import statistics

from companion import village as v
from companion.sim.play_styles import random_truth
from companion.village.chance import bag_after_fill

ap = argparse.ArgumentParser(description="the green-bag fill's odds")
ap.add_argument("--accuracy", type=float, default=None)
ap.add_argument("--seeds", type=int, default=5)
args = ap.parse_args()
if args.accuracy is None:
    with open("docs/vision-bench.json") as f:
        acc = json.load(f)["accuracy_by_kind"]["real-ordinary"]["cubes_tracks"]
else:
    acc = args.accuracy
p = 1 - acc
post = []
for seed in range(1, args.seeds + 1):
    rng = random.Random(seed)
    header, actions = random_truth(3, rng, "purposeful")
    st = v.start(header)
    for a in actions:
        if a["type"] == "fill_bag":
            bag = {c.value: n for c, n in bag_after_fill(st).items()}
            spaces = {s: dict(c) for s, c in a["spaces"].items()}
            drawn: dict[str, int] = {}
            for cs in spaces.values():
                for c, n in cs.items():
                    drawn[c] = drawn.get(c, 0) + n
            rival = 0.0
            for cs in spaces.values():
                for b, kb in cs.items():  # the reading's cube b on the space was truly c
                    if kb == 0:
                        continue
                    for c in bag:
                        if c == b or drawn.get(c, 0) + 1 > bag[c]:
                            continue
                        ratio = ((bag[c] - drawn.get(c, 0)) / (bag[b] - drawn[b] + 1)
                                 * kb / (cs.get(c, 0) + 1))
                        full = len([x for x, n in {**cs, c: cs.get(c, 0) + 1,
                                                   b: kb - 1}.items() if n > 0])
                        q = 0.5 / full / 4
                        rival += ratio * p / (1 - p) * q
            post.append(1 / (1 + rival))
        st = v.apply(st, a)
print(f"cube accuracy {acc}; fills {len(post)}; posterior of the read fill: "
      f"min {min(post):.3f} median {statistics.median(post):.3f} max {max(post):.3f}; "
      f"mean error {1 - statistics.mean(post):.3%}")
