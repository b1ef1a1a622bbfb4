"""Tuesday: the family cards turned up together, members sent to the town hall, the
coat-of-arms order; and the council's votes on any day (seed 004, « Mardi », « Votes des
décrets au Conseil »)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from .state import Seat
from .vocabulary import STREETS


def send_to_hall(seat: Seat, card: int, fewer: int = 0,
                 reserve_only: bool = False) -> tuple[Seat, int, int]:
    """``seat`` after sending ``card`` members to the town hall: from the reserve, then
    (when short) from the Tuesday street, then the next streets (« il prend d'autres
    membres … sur la case de rue Mardi … puis la prochaine »). Returns the seat, the
    members sent and what the card counts: its value, or 0 when the reserve was short.
    Choice (docs/colonia.md, ambiguity 2): a player short even after every street sends
    what they have. ``fewer``: members fewer than the card (the decree « un membre de
    moins »; the card's value still sets the order and the votes)."""
    need = max(card - fewer, 0)
    take = min(seat.reserve, need)
    seat = replace(seat, reserve=seat.reserve - take, cards=tuple(c for c in seat.cards
                                                                   if c != card), card=card)
    sent, counts = take, card if take == need else 0
    for day in () if reserve_only else STREETS:
        if sent == need:
            break
        more = min(seat.street(day), need - sent)
        seat, sent = seat.with_street(day, seat.street(day) - more), sent + more
    return replace(seat, votes=counts), sent, counts


def coat_of_arms(counts: Mapping[str, int], before: Sequence[str]) -> tuple[str, ...]:
    """The order for the week, the mayor first: the highest count first; equal counts
    (zeros too) in the reverse of their order ``before`` (« l'ordre de ces joueurs au tour
    précédent est inversé »)."""
    rank = {p: i for i, p in enumerate(before)}
    return tuple(sorted(counts, key=lambda p: (-counts[p], -rank[p])))


def ties(counts: Mapping[str, int]) -> tuple[str, ...]:
    """The players whose count another player also has (week 1: the die settles them)."""
    values = list(counts.values())
    return tuple(p for p, v in counts.items() if values.count(v) > 1)


def tally(votes: Mapping[str, str], weights: Mapping[str, int]) -> tuple[int, int]:
    """(yes, no): each voter's card value on their side (« leurs voix … sont affectées au
    côté Oui ou Non et additionnées »); a card counting zero weighs nothing."""
    yes = sum(weights[p] for p, v in votes.items() if v == "yes")
    no = sum(weights[p] for p, v in votes.items() if v == "no")
    return yes, no


def voters(seats: Sequence[Seat]) -> tuple[str, ...]:
    """Who votes this week: those whose family card counts (« les joueurs avec une carte
    Famille face cachée ne votent pas »)."""
    return tuple(s.color for s in seats if s.votes > 0)
