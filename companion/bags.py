"""Virtual bags: seeded, verifiable draws (commit to a seed's hash, reveal the seed after).

The draw order is a pure function of the seed and the bag's contents, so anyone holding
the revealed seed can redo it: ``draw(spec, seed)`` with the same spec gives the same
pieces. The seed is chosen before its hash is shown, and the hash is shown before the
draw, so no one can pick a seed that suits them after seeing what is at stake.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass
from typing import Any

from companion.games.chance import ChanceSpec


@dataclass(frozen=True, slots=True)
class Commitment:
    """A seed and the hash shown before it is used."""

    seed: str
    digest: str

    @classmethod
    def new(cls) -> Commitment:
        seed = secrets.token_hex(16)
        return cls(seed, seed_digest(seed))


def seed_digest(seed: str) -> str:
    """The published commitment: SHA-256 of the seed's text, hex."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def draw(spec: ChanceSpec, seed: str | int) -> list[str]:
    """The pieces a draw with ``seed`` takes out, in drawing order."""
    rng = random.Random(f"{spec.kind}:{seed}")
    return rng.sample(list(spec.contents), spec.count)


def draw_action(spec: ChanceSpec, seed: str | int) -> dict[str, Any]:
    """The record form of the chance action a draw with ``seed`` produces."""
    return spec.action(draw(spec, seed))


def draw_with_rng(spec: ChanceSpec, rng: random.Random) -> dict[str, Any]:
    """A draw from an existing generator (simulations)."""
    return spec.action(rng.sample(list(spec.contents), spec.count))
