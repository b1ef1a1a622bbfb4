"""Where the tablet touches of a reconcile-bench run come from, by cause.

    PYTHONPATH=$PWD python3 scripts/prompt_causes.py --games 3 --seed 1 \
        --setup hub+camera --noise ordinary --play purposeful [--json]

Plays the same games as ``companion reconcile-bench`` (same seeds, same streams) and
records, for every prompt, which rule of the reconciler made it a prompt rather than an
action (the rules tried in ``Reconciler._reconcile``, recorded by wrapping them in this
process only), and the true action's kind; for every action entered on the tablet, why
the players entered it (a prompt answered "none of these", a discrepancy put right twice,
the reconciler left behind by the search's depth while something stayed open, the end of
the game). Prints the touches (prompt answers, discrepancies met, tablet entries) by cause
and by the truth's kind. The bench's own counts are printed beside them as a check.

A prompt's causes are every rule that fired for its look (``search:N`` the number of paths
the search found; ``unseen:KIND`` a step no sensor sees; ``doubted`` a path changing a
doubted camera region; ``members``, ``gain``, ``misread-rival``, ``drawn``, ``hand``,
``one-read-wrong``, ``two-misreads``, ``fill-misread``, ``unread``, ``tap``,
``disagreement``, ``follow-up`` an answer's next step); its *primary* cause is the first
of them in the order of ``PRIMARY``.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter, defaultdict
from typing import Any

from companion.reconcile import reconciler as rmod
from companion.reconcile.reconciler import Prompt, Reconciler
from companion.sim import table_game
from companion.sim.behaviour import NOISE
from companion.sim.link import Counts, SimLink
from companion.sim.play_styles import random_truth

PRIMARY = ("tap", "disagreement", "follow-up", "fill-misread", "one-read-wrong", "doubted",
           "hand", "unseen", "unread", "drawn", "misread-rival", "gain", "members",
           "several")

_look: dict[str, Any] = {"flags": [], "lead": 0}
_prompt_cause: dict[int, tuple[str, tuple[str, ...], str]] = {}
_touches: Counter[tuple[str, str, str]] = Counter()  # (what, cause, truth kind)
_prompts: Counter[tuple[str, str]] = Counter()  # (cause, truth kind)
_flags: Counter[tuple[str, ...]] = Counter()
_details: Counter[tuple[str, ...]] = Counter()  # misread rivals: truth, path, rival, off
_context: dict[str, Any] = {"why": None}


def _flag(name: str) -> None:
    if not _look["lead"]:
        _look["flags"].append(name)


def _wrap_list(name: str, label: str) -> None:
    orig = getattr(Reconciler, name)

    def wrapped(self: Any, *a: Any, **k: Any) -> Any:
        got = orig(self, *a, **k)
        if got:
            _flag(label)
        return got
    setattr(Reconciler, name, wrapped)


def _install() -> None:
    rivals = Reconciler._misread_rivals

    def _misread_rivals(self: Any, path: Any, observed: Any, *a: Any) -> Any:
        got = rivals(self, path, observed, *a)
        if got and not _look["lead"]:
            _flag("misread-rival")
            base = self._cache.base
            for m in got:
                node = self._cache.nodes[m]
                reg = {**node.pieces(), **node.others()}
                off = [k for k in observed if k in base and reg.get(k) != observed[k]]
                truth = self.link.truth[self.link.n]["type"] if self.link.n < len(
                    self.link.truth) else "end"
                _details[(truth, "/".join(a.type for a in path), "/".join(a.type for a in m),
                          ",".join(k.split(":")[0] for k in off),
                          ",".join("hand" if k in self.table.handled else "nohand"
                                   for k in off),
                          "handsseen" if self.table.handled else "nohands",
                          "P unhanded: " + ",".join(_unhanded(self, path, observed)))] += 1
        return got
    Reconciler._misread_rivals = _misread_rivals  # type: ignore[method-assign]
    doubted = Reconciler._changes_doubted

    def _changes_doubted(self: Any, path: Any) -> bool:
        got = doubted(self, path)
        if got and not _look["lead"]:
            _flag("doubted")
            node = self._cache.nodes.get(path)
            base = self._cache.base
            reg = {**node.pieces(), **node.others()} if node else {}
            ks = [k for k in self.doubted if reg.get(k) != base.get(k)]
            truth = self.link.truth[self.link.n]["type"] if self.link.n < len(
                self.link.truth) else "end"
            _details[("DOUBTED", truth, "/".join(a.type for a in path),
                      ",".join(k.split(":")[0] for k in ks),
                      ",".join("hand" if k in self.table.handled else "nohand" for k in ks),
                      "handsseen" if self.table.handled else "nohands")] += 1
        return got
    Reconciler._changes_doubted = _changes_doubted  # type: ignore[method-assign]
    for name, label in (("_other_members", "members"), ("_one_misread_away", "gain"),
                        ("_drawn_instead", "drawn"), ("_hand_elsewhere", "hand"),
                        ("_unread", "unread"), ("_two_misreads_rivals", "two-misreads")):
        _wrap_list(name, label)
    unseen = Reconciler._unseen

    def _unseen(self: Any, path: Any, observed: Any, *a: Any) -> bool:
        got = unseen(self, path, observed, *a)
        if got:
            kinds = [a.type for a in path if a.type in rmod.UNSEEN
                     or a.type in ("fill_bag", "mass_draw", "well", "free")]
            _flag("unseen:" + (kinds[0] if kinds else "?"))
        return got
    Reconciler._unseen = _unseen  # type: ignore[method-assign]

    lead = Reconciler._sure_lead

    def _sure_lead(self: Any, *a: Any) -> Any:
        _look["lead"] += 1
        try:
            return lead(self, *a)
        finally:
            _look["lead"] -= 1
    Reconciler._sure_lead = _sure_lead  # type: ignore[method-assign,assignment]

    wrong = Reconciler._one_read_wrong

    def _one_read_wrong(self: Any, *a: Any) -> Any:
        got = wrong(self, *a)
        if got[0]:
            _flag("one-read-wrong")
            if not _look["lead"]:
                truth = self.link.truth[self.link.n]["type"] if self.link.n < len(
                    self.link.truth) else "end"
                _details[("ONE-READ-WRONG", truth, str(len(got[0])), " ; ".join(
                    "/".join(x.type for x in m) + " unhanded:" + ",".join(
                        k.split(":")[0] for k in _unhanded(self, m, a[1]))
                    for m in got[0]), "handsseen" if self.table.handled else "nohands")] += 1
        return got
    Reconciler._one_read_wrong = _one_read_wrong  # type: ignore[method-assign,assignment]

    fills = Reconciler._misread_fills

    def _misread_fills(self: Any, *a: Any) -> Any:
        got = fills(self, *a)
        if got.matches:
            _flag("fill-misread")
        return got
    Reconciler._misread_fills = _misread_fills  # type: ignore[method-assign,assignment]

    explain = Reconciler._explain

    def _explain(self: Any, *a: Any) -> Any:
        got = explain(self, *a)
        if not _look.get("searched"):
            _look["searched"] = True
            _flag(f"search:{len(got.matches)}")
        return got
    Reconciler._explain = _explain  # type: ignore[method-assign,assignment]

    reconcile = Reconciler._reconcile

    def _reconcile(self: Any, *a: Any, **k: Any) -> Any:
        _look.update(flags=[], searched=False, where="look")
        return reconcile(self, *a, **k)
    Reconciler._reconcile = _reconcile  # type: ignore[method-assign]

    for name, where in (("_tap_answer", "tap"), ("_disagreement", "disagreement"),
                        ("answer", "follow-up")):
        _wrap_where(name, where)

    new_prompt = Reconciler._new_prompt

    def _new_prompt(self: Any, seq: int, matches: Any, maybe_nothing: bool = False) -> Any:
        known = self.prompt
        p = new_prompt(self, seq, matches, maybe_nothing)
        if p is not known:
            flags = tuple(dict.fromkeys(_look["flags"]))
            where = _look.get("where", "look")
            if where != "look":
                flags = (where, *flags)
            n = sum(int(f.split(":")[1]) for f in flags if f.startswith("search:"))
            names = {f.split(":")[0] for f in flags}
            primary = next((c for c in PRIMARY if c in names), None)
            if primary is None:
                primary = "several" if n > 1 else "?"
            if primary == "unseen":
                primary = next(f for f in flags if f.startswith("unseen:"))
            truth = self.link.truth[seq]["type"] if seq < len(self.link.truth) else "end"
            _prompt_cause[p.id] = (primary, flags, truth)
            _prompts[(primary, truth)] += 1
            _flags[flags] += 1
        return p
    Reconciler._new_prompt = _new_prompt  # type: ignore[method-assign]

    respond = table_game._Clock._respond

    def _respond(self: Any, what: Any) -> None:
        is_prompt = isinstance(what, Prompt)
        still = (self.rec.prompt is not None and self.rec.prompt.id == what.id) if is_prompt \
            else (self.rec.discrepancy is not None and self.rec.discrepancy.id == what.id)
        if still and is_prompt:
            cause, _f, truth = _prompt_cause.get(what.id, ("?", (), "?"))
            _touches[("answer", cause, truth)] += 1
            _context["why"] = "declined:" + cause
        elif still:
            truth = (self.link.truth[what.seq]["type"] if what.seq < len(self.link.truth)
                     else "end")
            kinds = sorted({i["region"].split(":")[0] for i in what.items})
            _touches[("discrepancy", "/".join(kinds), truth)] += 1
            _context["why"] = "discrepancy"
        try:
            respond(self, what)
        finally:
            _context["why"] = None
    table_game._Clock._respond = _respond  # type: ignore[method-assign]

    catch_up = table_game._Clock.catch_up

    def _catch_up(self: Any, upto: int) -> None:
        why = _context["why"]
        if why is None:
            rec = self.rec
            if rec.prompt is not None:
                why = "behind, prompt open:" + _prompt_cause.get(rec.prompt.id, ("?",))[0]
            elif rec.discrepancy is not None:
                why = "behind, discrepancy open"
            elif rec.waiting is not None:
                why = "behind, waiting"
            else:
                why = "behind"
        _context["entering"] = why
        try:
            catch_up(self, upto)
        finally:
            _context["entering"] = None
    table_game._Clock.catch_up = _catch_up  # type: ignore[method-assign]

    submit = SimLink.submit

    def _submit(self: Any, action: dict[str, Any], *a: Any, **k: Any) -> int:
        if self.mode == "manual" and action["type"] != "reveal_customers":
            _touches[("tablet", _context.get("entering") or "?", action["type"])] += 1
        return submit(self, action, *a, **k)
    SimLink.submit = _submit  # type: ignore[method-assign]


def _unhanded(rec: Any, path: Any, observed: Any) -> list[str]:
    """The camera regions ``path`` changes that no hand came near."""
    from companion.reconcile.misreads import camera_read
    node = rec._cache.nodes.get(path)
    if node is None:
        return ["?"]
    base = rec._cache.base
    reg = {**node.pieces(), **node.others()}
    return [k for k in observed if k in base and camera_read(k, observed[k])
            and reg.get(k) != base[k] and k not in rec.table.handled]


def _wrap_where(name: str, where: str) -> None:
    orig = getattr(Reconciler, name)

    def wrapped(self: Any, *a: Any, **k: Any) -> Any:
        before = _look.get("where")
        _look["where"] = where
        if where != "look":
            _look["flags"] = []
        try:
            return orig(self, *a, **k)
        finally:
            _look["where"] = before
    setattr(Reconciler, name, wrapped)


def run(games: int, seed: int, setup: str, noise: str, play_: str,
        players: int = 3) -> dict[str, Any]:
    """The same games as `companion.bench.reconcile.run` for one setup and noise."""
    _install()
    rng = random.Random(seed)
    truths = [random_truth(players, rng, play_) for _ in range(games)]
    total = Counts()
    for g, (header, actions) in enumerate(truths):
        total.add(table_game.play(header, actions, setup, NOISE[noise],
                                  random.Random(f"{seed}/{g}/{setup}/{noise}")))
    by_cause: dict[str, Counter[str]] = defaultdict(Counter)
    for (what, cause, _truth), n in _touches.items():
        by_cause[what][cause] += n
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    for (what, _cause, truth), n in _touches.items():
        by_kind[truth][what] += n
    return {
        "bench": {"actions": total.actions, "auto_correct": total.auto_correct,
                  "auto_wrong": total.auto_wrong, "prompts": total.prompts,
                  "answers": total.answers, "manual": total.manual, "acks": total.acks,
                  "touches": total.touches,
                  "auto_rate": round(total.auto_correct / max(1, total.actions), 4),
                  "touches_per_action": round(total.touches / max(1, total.actions), 4)},
        "touches_by_cause": {w: dict(c.most_common()) for w, c in by_cause.items()},
        "touches_by_truth": {k: dict(c) for k, c in sorted(by_kind.items())},
        "prompts_by_cause_and_truth": {f"{c} / {t}": n for (c, t), n in _prompts.most_common()},
        "prompt_flags": {" ".join(f): n for f, n in _flags.most_common(40)},
        "misread_rivals": {" | ".join(d): n for d, n in _details.most_common(60)},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--setup", default="hub+camera")
    ap.add_argument("--noise", default="ordinary")
    ap.add_argument("--play", default="purposeful")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = run(args.games, args.seed, args.setup, args.noise, args.play)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print("bench:", out["bench"])
    for what, causes in out["touches_by_cause"].items():
        print(f"\n{what} ({sum(causes.values())}):")
        for c, n in causes.items():
            print(f"  {n:4d}  {c}")
    print("\ntouches by the truth's kind:")
    for k, c in out["touches_by_truth"].items():
        print(f"  {k:14s} {c}")
    for title, key in (
            ("prompts by primary cause / truth", "prompts_by_cause_and_truth"),
            ("misread rivals (truth | path | rival | off region | hand there | hands)",
             "misread_rivals"),
            ("prompt flags", "prompt_flags")):
        print(f"\n{title}:")
        for k, n in out[key].items():
            print(f"  {n:4d}  {k}")


if __name__ == "__main__":
    main()
