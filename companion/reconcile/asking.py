"""A prompt in the table's language: what to ask about several explanations of the table.

Candidates that share everything but one step are asked about that step alone: the
question is the step's words with the part that differs left open ("Yellow puts 3 pink
cubes back at the well and takes the … action?") and each choice is that part ("Market",
"Travel"). More than `MAX_SENTENCES` candidates that differ in several steps are asked
about the first step that differs: the candidates become those paths cut after that step
(one each, each standing for the candidates that start so): the answer picks those, and
if several remain they are asked about next. A few candidates differing in several steps
keep their whole sentences. Never more than `MAX_SENTENCES` long choices (`too_long`):
more, differing in one step, are asked by the kind of that step first (a take; the well
for "…" space), else one figure at a time (a mass draw read by colour), else by the word
they begin with (a journey's city), each choice standing for its paths.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion import village as v
from companion.village import narrate
from companion.village.actions import Action
from companion.village.vocabulary import MONK, is_member

Path = tuple[Action, ...]

MAX_SENTENCES = 5  # a prompt never lists more whole sentences than this
LONG_WORDS = 8  # a choice of more words than this is a long sentence (issue 15, item 5)
BUTTON_CHARS = 120  # a button's own words, at most (the page's sensing tests hold it)
YES = "Yes, that is what happened"  # the one button of a prompt with one candidate


@dataclass
class Asked:
    """What a prompt shows: ``question``; one ``choices`` label (short where the paths
    differ in one step) and one ``words`` sentence per path of ``paths``."""

    question: str
    paths: list[Path]
    choices: list[str]
    words: list[str]
    # the words whole-sentence choices all share, "…" where they differ (said once above
    # the buttons, which then say only their own words); "" when the choices are labels
    shared: str = ""
    # per path shown, the candidates it stands for (itself, or those it begins)
    stands_for: list[list[Path]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.stands_for:
            self.stands_for = [[p] for p in self.paths]


def words(st: v.GameState, path: Path | list[Any]) -> str:
    """What a sequence of actions (objects or JSON) does, in the narration's public
    words ("Red takes a brown cube from Harvest; then a child is born to Red")."""
    said = []
    for step in path:
        action = v.parse_action(step) if isinstance(step, dict) else step
        after = v.apply(st, action)
        said.append(narrate.headline(st, action, after).rstrip("."))
        st = after
    return "; then ".join(said)


def ask(st: v.GameState, paths: list[Path], question: str = "Which was it?",
        label: Callable[[Action], str | None] | None = None) -> Asked:
    """How to ask which of ``paths`` (from ``st``) happened (see the module docstring);
    ``question`` when the paths differ in several steps; ``label`` names the step the
    paths differ in where the narration's words do not (a green bag's layout). Raises
    what ``v.apply`` raises for a path that is not legal from ``st``."""
    if len(paths) < 2:  # one candidate: a step the sensors cannot vouch for
        said = [words(st, p) for p in paths]
        if not said:
            return Asked("Is this what happened?", [], [], [])
        # the move said once, in the question; the button only confirms it
        return Asked(f"Is this what happened? {said[0]}.", list(paths), [YES], said)
    i = _first_difference(paths)
    if not _only_at(paths, i):
        if len(paths) <= MAX_SENTENCES:
            return _sentences(question, list(paths), [words(st, p) for p in paths])
        groups: dict[Path, list[Path]] = {}
        for p in paths:
            groups.setdefault(p[:i + 1], []).append(p)
        # fewer than two groups, or the groups are the paths again (one path ending where
        # the others go on): asked as sentences (regrouping would never end)
        if len(groups) < 2 or list(groups) == [tuple(p) for p in paths]:
            listed = _sentences(question, list(paths), [words(st, p) for p in paths])
            # too many long ones: by the kind of the step they differ in (twelfth session)
            return _by_kind(listed, i) if too_long(listed.choices) else listed
        first = ask(st, list(groups), question, label)
        # each choice stands for the whole paths its first steps begin (a choice asked
        # by kind stands for several first steps)
        first.stands_for = [[q for pre in sf for q in groups[pre]] for sf in first.stands_for]
        return first
    before = st
    for step in paths[0][:i]:
        before = v.apply_unchecked(before, step)
    lines = [narrate.headline(before, p[i], v.apply_unchecked(before, p[i])).rstrip(".")
             for p in paths]
    stem, labels, tail = _open_part(lines)
    said = [words(st, p) for p in paths]
    named = [label(p[i]) for p in paths] if label is not None else []
    if named and all(named):
        return Asked(question, paths, [str(n) for n in named], said)
    if not all(labels):
        return _sentences(question, paths, said)
    if len(stem.split()) <= 1:
        asked = f"What did {stem} do?" if stem else "Which was it?"
    else:
        asked = f"{stem} …{' ' + tail if tail else ''}?"
    if i:  # what all of them did first
        asked = f"{words(st, paths[0][:i])}. Then: {asked}"
    figures = _figure_labels(paths, i)
    if figures and len(paths) > MAX_SENTENCES:  # one figure at a time (a mass draw)
        return _by_kind(Asked(asked, paths, figures, said), i)
    if figures:  # each only the figures it names where the others differ
        labels = figures
    if too_long(labels):
        return _by_kind(Asked(asked, paths, labels, said), i)
    return Asked(asked, paths, labels, said)


def _figure_lists(paths: list[Path], i: int) -> tuple[list[list[str]], list[int]]:
    """When steps ``i`` of ``paths`` differ only in a list of figures (a mass draw read by
    colour: which Blue, which Red): each list, and the positions where they differ; else
    ``([], [])``."""
    acts = [p[i].to_json() for p in paths]
    keys = {k for a in acts for k in a if any(b.get(k) != a.get(k) for b in acts)}
    if len(keys) != 1:
        return [], []
    key = keys.pop()
    lists: list[list[str]] = []
    for a in acts:
        x = a.get(key)
        if not isinstance(x, list) or not all(is_member(f) or f == MONK for f in x):
            return [], []  # not figures (the cubes of a gain: said by the narration)
        lists.append([str(f) for f in x])
    if any(len(x) != len(lists[0]) for x in lists):
        return [], []
    return lists, [j for j in range(len(lists[0])) if any(x[j] != lists[0][j] for x in lists)]


def _name(figure: str) -> str:
    return narrate.member_name(figure) if is_member(figure) else figure


def _figure_labels(paths: list[Path], i: int) -> list[str]:
    """Per path, the names of its figures where the lists differ ("Red 2b and Yellow
    1a"), when steps ``i`` differ only there (`_figure_lists`); else ``[]``."""
    lists, at = _figure_lists(paths, i)
    return [narrate.join_words([_name(x[j]) for j in at]) for x in lists] if at else []


def _by_figure(paths: list[Path], i: int) -> tuple[dict[str, list[int]], dict[str, str]]:
    """The paths grouped by the first figure that differs (`_figure_lists`), and each
    group's label (the figure's name); ``{}`` when they differ otherwise."""
    lists, at = _figure_lists(paths, i)
    if not at:
        return {}, {}
    groups: dict[str, list[int]] = {}
    for k, x in enumerate(lists):
        groups.setdefault(x[at[0]], []).append(k)
    return groups, {g: _name(g) for g in groups}


def too_long(choices: list[str]) -> bool:
    """True when more than `MAX_SENTENCES` of ``choices`` are long sentences (more than
    `LONG_WORDS` words): what a prompt must never list (issue 15, item 5)."""
    return sum(len(c.split()) > LONG_WORDS for c in choices) > MAX_SENTENCES


def _by_kind(asked: Asked, i: int) -> Asked:
    """Too many long choices differing in step ``i``: one choice per kind of that step
    (a take; the well used for some space; a path that ends before it), its words those
    the kind's choices share with "…" where they differ, standing for its paths (asked
    about next, as a first step is). ``asked`` as it is when every kind has a single
    path."""
    groups: dict[str, list[int]] = {}
    for k, p in enumerate(asked.paths):  # a path ending before step i: a kind of its own
        groups.setdefault(p[i].type if len(p) > i else "", []).append(k)
    named: dict[str, str] = {}
    if len(groups) < 2:  # one kind: perhaps one figure of a list at a time (a mass draw)
        groups, named = _by_figure(asked.paths, i)
    if len(groups) < 2:  # else by the word they begin with (a journey's city)
        groups = {}
        for k, label in enumerate(asked.choices):
            groups.setdefault(label.split(" ")[0], []).append(k)
    if len(groups) < 2 or all(len(ks) == 1 for ks in groups.values()):
        return asked
    paths, choices, said, stands = [], [], [], []
    for key, ks in groups.items():
        label, whole = named.get(key, asked.choices[ks[0]]), asked.words[ks[0]]
        if len(ks) > 1 and key not in named:
            label = shared_and_own([asked.choices[k] for k in ks])[0] or label
            whole = shared_and_own([asked.words[k] for k in ks])[0] or whole
        paths.append(asked.paths[ks[0]])
        choices.append(label)
        said.append(whole)
        stands.append([asked.paths[k] for k in ks])
    return Asked(asked.question, paths, choices, said, shared=asked.shared, stands_for=stands)


def _sentences(question: str, paths: list[Path], said: list[str]) -> Asked:
    """Whole sentences asked about: the words they share said once, each button its own."""
    shared, own = shared_and_own(said)
    return Asked(question, paths, own, said, shared=shared)


def shared_and_own(texts: list[str]) -> tuple[str, list[str]]:
    """Sentences that differ in a few words: the words they all begin and end with, said
    once with "…" where they differ, and each sentence's own words between. One sentence,
    or sentences sharing neither end (or one wholly inside another), come back whole with
    ``""`` shared."""
    split = [t.split(" ") for t in texts]
    if len(split) < 2:
        return "", list(texts)
    first = split[0]
    pre = 0
    while all(pre < len(w) and w[pre] == first[pre] for w in split):
        pre += 1
    post = 0
    while all(post < len(w) - pre and w[-1 - post] == first[-1 - post] for w in split):
        post += 1
    own = [" ".join(w[pre:len(w) - post]) for w in split]
    if (not pre and not post) or not all(own):
        return "", list(texts)
    shared = " ".join([*first[:pre], "…", *first[len(first) - post:]])
    if max(len(o) for o in own) > BUTTON_CHARS:  # perhaps they share a middle too
        # the stops between steps as words of their own: "cube;" ends a step the other
        # sentence goes on from ("cube; then …"), and the run they share takes the cube in
        middle = _shared_middle([_tokens(" ".join(w[pre:len(w) - post])) for w in split])
        if middle is not None:
            run, own = middle
            shared = _joined([*first[:pre], "…", *run, "…", *first[len(first) - post:]])
    return shared, own


def _tokens(text: str) -> list[str]:
    """``text``'s words, with ``;`` and ``,`` as words of their own."""
    return re.findall(r"[^\s;,]+|[;,]", text)


def _joined(tokens: list[str]) -> str:
    """``tokens`` as text again: ``;`` and ``,`` against the word before them."""
    return re.sub(r" ([;,])", r"\1", " ".join(tokens))


def _shared_middle(parts: list[list[str]]) -> tuple[list[str], list[str]] | None:
    """The longest run of words (four or more) found in every one of ``parts``, and each
    part's own words around it ("an orange … cube"); None when there is none, or it
    leaves a part nothing of its own."""
    first = parts[0]
    for size in range(len(first), 3, -1):
        for start in range(len(first) - size + 1):
            run = first[start:start + size]
            at = [_find(p, run) for p in parts]
            if any(a < 0 for a in at):
                continue
            own = [_joined(" … ".join(x for x in (" ".join(p[:a]), " ".join(p[a + size:]))
                                      if x).split(" "))
                   for p, a in zip(parts, at, strict=True)]
            return (run, own) if all(own) else None
    return None


def _find(words: list[str], run: list[str]) -> int:
    """Where ``run`` starts in ``words``, or -1."""
    for i in range(len(words) - len(run) + 1):
        if words[i:i + len(run)] == run:
            return i
    return -1


def _first_difference(paths: list[Path]) -> int:
    i = 0
    while all(len(p) > i for p in paths) and all(p[i] == paths[0][i] for p in paths):
        i += 1
    return i


def _only_at(paths: list[Path], i: int) -> bool:
    """True when the paths, all of one length, differ at step ``i`` alone."""
    n = len(paths[0])
    if i >= n or any(len(p) != n for p in paths):
        return False
    return all(p[j] == paths[0][j] for p in paths for j in range(n) if j != i)


def _open_part(lines: list[str]) -> tuple[str, list[str], str]:
    """The words all ``lines`` start with, what differs in each (capitalised), and the
    words they all end with."""
    split = [line.split() for line in lines]
    shortest = min(len(s) for s in split)
    head = 0
    while head < shortest and all(s[head] == split[0][head] for s in split):
        head += 1
    tail = 0
    while tail < shortest - head and all(s[-1 - tail] == split[0][-1 - tail] for s in split):
        tail += 1
    labels = [" ".join(s[head:len(s) - tail]) for s in split]
    labels = [lab[:1].upper() + lab[1:] for lab in labels]
    return (" ".join(split[0][:head]), labels,
            " ".join(split[0][len(split[0]) - tail:]) if tail else "")


__all__ = ["BUTTON_CHARS", "LONG_WORDS", "MAX_SENTENCES", "Asked", "ask", "too_long", "words"]
