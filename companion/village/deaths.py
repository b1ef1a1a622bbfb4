"""Time, the bridge and death (seed 000 « La devise Temps », « Un membre de la famille
décède », « Fin de la partie»)."""

from __future__ import annotations

from .state import GRAVE, REMOVED, GameState, Loc
from .vocabulary import Color, MemberId, member_color, member_generation


def spend_time(st: GameState, color: Color, amount: int) -> None:
    """Move a time marker ``amount`` spaces; each pass over the bridge owes one death.

    The marker starts on the cloud right after the bridge, so it passes the bridge each
    time the total spent reaches a multiple of the track length. Deaths are owed at the end
    of the turn, except during a market day where they are due at once.
    """
    if amount <= 0:
        return
    player = st.own(color)
    length = st.data.time_track_length
    crossings = (player.time + amount) // length - player.time // length
    player.time += amount
    if crossings:
        if st.day is not None:
            st.owed_now[color] = st.owed_now.get(color, 0) + crossings
        else:
            st.owed_turn_end += crossings


def death_candidates(st: GameState, color: Color) -> list[MemberId]:
    """The members that may die: the oldest generation among those visible (on the farm or
    the board). Members in the black bag or not yet born cannot die."""
    visible = st.family(color, st.rules.visible_zones)
    if not visible:
        return []
    oldest = min(member_generation(m) for m in visible)
    return [m for m in visible if member_generation(m) == oldest]


def representatives(st: GameState, members: list[MemberId]) -> list[MemberId]:
    """One member per interchangeable group (same generation, same place), lowest id."""
    seen: dict[tuple[int, Loc], MemberId] = {}
    for m in sorted(members):
        seen.setdefault((member_generation(m), st.members[m]), m)
    return sorted(seen.values())


def canonical_member(st: GameState, member: MemberId) -> MemberId:
    """The representative of ``member``'s interchangeable group."""
    gen, loc = member_generation(member), st.members[member]
    color = member_color(member)
    return min(m for m in st.family(color) if member_generation(m) == gen and st.members[m] == loc)


def canonical_members(st: GameState, members: tuple[MemberId, ...]) -> tuple[MemberId, ...]:
    """Distinct members rewritten to the lowest ids of the same groups (same sizes)."""
    wanted: dict[tuple[str, int, Loc], int] = {}
    for m in members:
        key = (member_color(m).value, member_generation(m), st.members[m])
        wanted[key] = wanted.get(key, 0) + 1
    out: list[MemberId] = []
    for (color, gen, loc), n in wanted.items():
        group = sorted(
            m
            for m in st.family(Color(color))
            if member_generation(m) == gen and st.members[m] == loc
        )
        out.extend(group[:n])  # n ≤ len(group): the members given are distinct
    return tuple(sorted(out))


def single_group(st: GameState, members: list[MemberId]) -> bool:
    """True when every member given is interchangeable with the others."""
    return len(representatives(st, members)) == 1


def chronicle_full(st: GameState) -> bool:
    caps = st.data.chronicle_capacity(len(st.players))
    return all(len(st.chronicle[s]) >= cap for s, cap in caps.items())


def bury(st: GameState, member: MemberId) -> None:
    """A member dies: to a free chronicle space of the section where they worked, else an
    anonymous grave, else (only possible in the final turns) out of the game. Filling the
    last chronicle space or the last grave triggers the end of the game. A module may bury
    the dead of its own zones its own way (Port: at sea)."""
    zone = st.members[member][0]
    own = st.rules.burials.get(zone)
    if own is not None:
        own(st, member)
        return
    section = st.rules.section_of_zone[zone]
    players = len(st.players)
    cause = None
    if len(st.chronicle[section]) < st.data.chronicle_capacity(players)[section]:
        st.chronicle[section] = [*st.chronicle[section], member]  # replaced whole (state.py)
        st.members[member] = ("chronicle", section)
        if chronicle_full(st):
            cause = "chronicle"
    elif len(st.graves) < st.data.grave_capacity(players):
        st.graves.append(member)
        st.members[member] = GRAVE
        if len(st.graves) >= st.data.grave_capacity(players):
            cause = "graves"
    else:
        st.members[member] = REMOVED
    if cause:
        trigger_end(st, member, cause)


def trigger_end(st: GameState, member: MemberId, cause: str) -> None:
    """The death of ``member`` filled the last space of something: the end is triggered
    (the first trigger counts)."""
    if st.end_trigger is None:
        st.end_trigger = member_color(member)
        st.end_cause = cause
        if st.day is not None:
            st.end_market_trigger = st.day.trigger
