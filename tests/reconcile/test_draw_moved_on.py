"""A figure the mass drew that has moved on from the church's first window before the
camera's look (thirteenth session).

The draw was read from the figures newly in church window 1 alone (`chance.draw_from`):
a drawn figure moved one window left straight away (paid in grain, the next step of the
mass) was not in window 1 when the table settled, no draw was read, and nothing
explained the table: a discrepancy, the draw, the move and the next round's fill entered
on the tablet (seed 1, camera, game 2, action 232). A camera's colour count of the
whole church (every window read) shows the figures that came from the bag wherever they
stand now; the draws it allows are tried beside those of window 1."""

from __future__ import annotations

from typing import Any

from reconcile_kit import game_states, run
from under_hand import moved_under_hand, watched

from companion import village as v
from companion.reconcile.reconciler import Discrepancy
from companion.sim.memory_link import MemoryLink


def _a_draw_then_its_figure_moved(
        ) -> tuple[v.GameState, dict[str, Any], dict[str, Any]]:
    """Seed 1: a mass draw of a family member, then that member moved up a window."""
    states = game_states(1)
    for i, (st, a) in enumerate(states[:-1]):
        nxt = states[i + 1][1]
        if (a["type"] == "mass_draw" and nxt["type"] == "church_move"
                and nxt["member"] in a["figures"]):
            return st, a, nxt
    raise AssertionError("no draw followed by its figure's move in seed 1")


def _play(moved: bool) -> tuple[MemoryLink, list[Any], list[dict[str, Any]]]:
    """The draw (and the move, ``moved``) made under a hand, the table read after them;
    a prompt whose choice begins the truth answered with it (the players would)."""
    st, draw, move = _a_draw_then_its_figure_moved()
    truth = [draw, move] if moved else [draw]
    after = st
    for a in truth:
        after = v.apply(after, a)
    link, rec = watched(st)
    moved_under_hand(rec, st, after)
    out = run(rec, 2.0, 15.0)
    p = rec.prompt
    if p is not None:
        done = len(link.submitted)
        pick = next((k for k, c in enumerate(p.candidates) if c == truth[done:done + len(c)]),
                    None)
        if pick is not None:
            out += rec.answer(p.id, pick) + run(rec, 15.1, 25.0)
    return link, out, truth


def test_a_drawn_figure_moved_on_from_window_1_is_read_as_drawn() -> None:
    """The drawn figure already one window left: no discrepancy; the draw (asked: its
    monks are inferred) and the move applied (before: a discrepancy)."""
    link, out, truth = _play(True)
    assert not [o for o in out if isinstance(o, Discrepancy)], out
    assert [a for a, *_ in link.submitted] == truth, out


def test_a_drawn_figure_still_in_window_1_is_read_as_before() -> None:
    """The control: the figure still in window 1 (read from window 1, as before)."""
    link, out, truth = _play(False)
    assert not [o for o in out if isinstance(o, Discrepancy)], out
    assert [a for a, *_ in link.submitted] == truth, out
