"""Hidden information by construction: nothing a spectator receives tells a private outcome.

Two properties over random games with every module:

- *Non-interference.* Two tables play the same public moves; only their private outcomes
  differ (each player's life goals, the treasures drawn). At every step everything a
  spectator can fetch or receive from each table (the live feed's events with their
  ``state`` and ``legal``, ``/api/state``, ``/api/legal``, ``/api/log``, ``/api/draws``, a
  fresh catch-up from seq 0) must be the same: if it were not, a spectator could tell the
  two tables apart, so it could learn something of the private outcome.
- *Seeds.* With every draw made virtually, no seed of a private draw (a deal, a treasure)
  appears in any public output before the game is over; every seed appears after it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import companion.village as v
from companion import bags
from companion.store import EventStore
from companion.table import TableService
from companion.village.modules.port import port_of

PRIVATE_KINDS = {"deal_silver", "deal_gold", "draw_treasure"}
MODULES = ["port", "life_goals"]
NOISE = frozenset({"time", "commitment", "digest"})


def _public_outputs(service: TableService, whole: bool = True) -> dict[str, Any]:
    """Everything a viewer without a token can ask the service for now (``whole`` False:
    the log's and the catch-up's newest entries only, which is what changed)."""
    backlog, _ = service.catch_up(0 if whole else max(service.seq() - 3, 0))
    return {
        "state": service.public_view(),
        "legal": service.legal_view(),
        "log": service.log() if whole else service.log(limit=3),
        "draws": service.draws(),
        "catch_up": [json.loads(n.data) for n in backlog],
    }


def _normalised(obj: Any) -> Any:
    """Drop what differs between two tables for reasons that tell nothing: event times and
    the commitments on offer (digests of fresh random seeds)."""
    if isinstance(obj, dict):
        return {k: _normalised(val) for k, val in obj.items() if k not in NOISE}
    if isinstance(obj, list):
        return [_normalised(x) for x in obj]
    return obj


def _other_outcome(
    spec: v.ChanceSpec, outcome: dict[str, Any], rng: random.Random, viewer: str | None,
    state: v.GameState,
) -> dict[str, Any]:
    """A different private outcome of the same draw where there is one; with a ``viewer``,
    one that differs only in what the others hold (the viewer's own share is the same)."""
    if viewer is not None and outcome["type"] == "deal_goals":
        others = [c for c in outcome["hands"] if c != viewer]
        tiles = [outcome["hands"][c] for c in others]
        if len(others) >= 2:  # the others' tiles swapped among them
            return {**outcome, "hands": {**outcome["hands"],
                                         **dict(zip(others, tiles[1:] + tiles[:1], strict=True))}}
        free = [t for t in spec.contents if t not in outcome["hands"].values()]
        return {**outcome, "hands": {**outcome["hands"], others[0]: rng.choice(free)}}
    if viewer is not None and outcome["type"] == "draw_treasure":
        assert port_of(state) is not None and port_of(state).voyage is not None
        if port_of(state).voyage.player.value == viewer:
            return outcome  # the viewer's own treasure: the same tile in both
    for _ in range(50):
        other = bags.draw_with_rng(spec, rng)
        if other != outcome:
            return other
    return outcome


def _lockstep(
    tmp_path: Path, seed: int, players: list[str], viewer: str | None = None,
    max_steps: int = 900,
) -> int:
    """Play two tables in lockstep; compare what a spectator (``viewer`` None) or one
    player receives from each at every step. Returns the steps played."""
    rng = random.Random(seed)
    twin_rng = random.Random(seed + 1)
    tables = [TableService(EventStore(tmp_path / f"{n}.sqlite3"), "tok") for n in "ab"]
    for table in tables:
        table.new_game(players, modules=MODULES, goal_claims="manual")
    feeds = [t.subscribe(after=0) for t in tables]
    private = 0
    steps = 0
    for steps in range(max_steps):
        a, b = tables
        if a.state().phase == "over":
            break
        spec_a, spec_b = v.chance_spec(a.state()), v.chance_spec(b.state())
        assert (spec_a is None) == (spec_b is None)
        if spec_a is not None and spec_b is not None:
            if spec_a.kind in PRIVATE_KINDS:
                outcome_a = bags.draw_with_rng(spec_a, rng)
                if spec_a.kind == "draw_treasure" and viewer is not None:
                    outcome_a = _in_both(spec_a, spec_b, a.state(), rng)
                outcome_b = _other_outcome(spec_b, outcome_a, twin_rng, viewer, b.state())
                private += outcome_a != outcome_b
                a.submit(outcome_a)
                b.submit(outcome_b)
            else:
                assert spec_a == spec_b, "a public draw's contents differ between the tables"
                outcome = bags.draw_with_rng(spec_a, rng)
                a.submit(outcome)
                b.submit(outcome)
        else:
            offers = a.legal_view()["actions"]
            assert offers, "a decision without options"
            chosen = rng.choice(offers)
            a.submit(chosen)
            b.submit(chosen)
        if a.state().phase == "over":
            break  # the end reveals every hand: the tables may differ from here on
        whole = steps % 25 == 0
        out_a, out_b = (_normalised(_outputs(t, viewer, whole)) for t in tables)
        for key in out_a:
            assert out_a[key] == out_b[key], f"step {steps}: {key} tells the tables apart"
        notes = []
        for feed in feeds:
            notice = feed.get(timeout=1)
            assert notice is not None
            notes.append(_normalised(json.loads(notice.data)))
        assert notes[0] == notes[1], f"step {steps}: the live event tells the tables apart"
    for feed in feeds:
        feed.close()
    for table in tables:
        table.store.close()
    assert private >= 2, "the game drew too few private outcomes to test anything"
    return steps


def _in_both(spec_a: v.ChanceSpec, spec_b: v.ChanceSpec, st: v.GameState,
             rng: random.Random) -> dict[str, Any]:
    """A treasure for the viewer that is in both tables' stacks (its tile, so its value)."""
    both = sorted(set(spec_a.contents) & set(spec_b.contents))
    tile = rng.choice(both) if both else spec_a.contents[0]
    return {"type": "draw_treasure", "tile": tile}


def _outputs(service: TableService, viewer: str | None, whole: bool) -> dict[str, Any]:
    out = _public_outputs(service, whole)
    if viewer is not None:
        out["private"] = service.private_view(viewer)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_spectator_cannot_tell_two_tables_apart_by_their_private_outcomes(
    tmp_path: Path, seed: int
) -> None:
    players = ["red", "blue", "yellow", "white"][: 2 + seed % 3]
    steps = _lockstep(tmp_path, seed, players)
    assert steps > 50


@pytest.mark.parametrize("seed", [4, 5])
def test_a_player_cannot_tell_two_tables_apart_by_the_others_private_outcomes(
    tmp_path: Path, seed: int
) -> None:
    """Red's own page, as well as the public outputs, is the same whatever the others'
    goals and treasures are."""
    players = ["red", "blue", "yellow"]
    steps = _lockstep(tmp_path, seed, players, viewer="red")
    assert steps > 50


def _strings(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


def test_private_seeds_are_withheld_until_the_end_then_shown(tmp_path: Path) -> None:
    service = TableService(EventStore(tmp_path / "g.sqlite3"), "tok")
    service.new_game(["red", "blue", "white"], modules=MODULES, goal_claims="manual")
    feed = service.subscribe(after=0)
    rng = random.Random(7)
    received: list[str] = []
    private_seeds: set[str] = set()
    for _ in range(5000):
        if service.state().phase == "over":
            break
        offers = service.legal_view()["actions"]
        service.submit(rng.choice(offers))
        last = service.events()[-1].payload
        audit = last.get("_draw")
        if isinstance(audit, dict) and last.get("type") in ("deal_goals", "draw_treasure"):
            private_seeds.add(audit["seed"])
        if service.state().phase != "over":
            received.append(_strings(_public_outputs(service)))
            while (notice := feed.get(timeout=0)) is not None:
                received.append(notice.data)
    assert service.state().phase == "over"
    assert len(private_seeds) >= 2
    everything = "\n".join(received)
    leaked = [s for s in private_seeds if s in everything]
    assert not leaked, f"{len(leaked)} private seeds reached the public before the end"
    # at the end every draw is verifiable by everyone
    shown = {d.get("seed") for d in service.draws()}
    assert private_seeds <= shown
    for draw in service.draws():
        assert "withheld" not in draw
    end_catch_up = "\n".join(n.data for n in service.catch_up(0)[0])
    assert all(s in end_catch_up for s in private_seeds)
    feed.close()
    service.store.close()


def _at_a_load_step(seed: int) -> v.GameState:
    """A Port game played until some player's voyage waits at its load step."""
    rng = random.Random(seed)
    st = v.new_game(["red", "blue"], modules=["port"])
    for _ in range(3000):
        spec = v.chance_spec(st)
        if spec is not None:
            st = v.apply(st, bags.draw_with_rng(spec, rng))
            continue
        offers = v.legal_actions(st)
        if any(a.type == "load" for a in offers):
            return st
        recruit = [a for a in offers if a.type == "recruit"]
        travel = [a for a in offers if getattr(a, "space", None) == "travel"]
        st = v.apply(st, rng.choice(recruit or travel or offers))
    raise AssertionError("no voyage reached its load step")


def test_a_treasure_loaded_from_the_table_is_named_without_its_tile() -> None:
    """PV9 lets a treasure in front of a player go back onto the hold. The pages list that
    option without the tile (its id names its value in the box data); the table sends the
    masked form back and the engine takes the holder's lowest-valued treasure."""
    st = _at_a_load_step(3).clone()
    assert port_of(st) is not None and port_of(st).voyage is not None
    me = port_of(st).voyage.player
    values = port_of(st).data.treasures if port_of(st).data else {}
    low, high = min(values, key=values.get), max(values, key=values.get)
    assert values[low] < values[high]
    port_of(st).treasures = [t for t in port_of(st).treasures if t not in (low, high)]
    port_of(st).ships[me].treasures = [high, low]
    moves = [a.to_json() for a in v.legal_actions(st)]
    private = [m for m in moves if any(p.startswith("treasure:t") for p in m.get("cargo", []))]
    assert {p for m in private for p in m["cargo"] if p.startswith("treasure")} == {
        f"treasure:{low}", f"treasure:{high}"}
    from companion import games
    from companion.table.disclosure import public_options

    listed, _ = public_options(games.get("village"), moves, [{} for _ in moves])
    assert '"treasure:t' not in _strings(listed)
    masked = [m for m in listed if "treasure:?" in m.get("cargo", [])]
    assert masked and len(masked) < len(private)  # alike options merged
    chosen = v.from_public(st, masked[0])
    assert f"treasure:{low}" in chosen["cargo"]
    after = v.apply(st, chosen)
    assert port_of(after) is not None and port_of(after).ships[me].treasures == [high]
    assert '"treasure:t' not in _strings(v.view(after, "table"))
