"""What an adopted decree does (seed 004, « Explication des cartes »), for the effects the
engine applies (`companion.colonia.cards.EFFECTS`); any other decree is voted and recorded
only (docs/colonia.md)."""

from __future__ import annotations

from . import flow
from .cards import Decree
from .state import State, evolve
from .vocabulary import CRAFTS

EXTRA_STALLS = (4, 4)
EACH_DRAWS = 2
"""« Chaque joueur peut tirer immédiatement deux matières premières du sac »."""
"""« Pour 2 stands du marché supplémentaires, on tire pour chacun 4 matières premières »."""


def adopted(st: State, decree: Decree) -> State:
    """The state once ``decree`` is adopted on its day: its effect applied (or the draw or
    the cards it needs waited for), then the day carries on."""
    effect = decree.effect or "other"
    if effect.startswith("extra_orders_"):  # « exécute deux commandes supplémentaires »
        k = CRAFTS.index(effect.removeprefix("extra_orders_"))
        sticks = (*st.sticks[:k], st.sticks[k] + 2, *st.sticks[k + 1:])
        return flow.day(evolve(st, sticks=sticks), st.day)
    if effect == "one_less_member":  # « la semaine suivante, un membre de moins »
        return flow.day(evolve(st, fewer=st.week + 1), st.day)
    if effect == "more_materials" and any(b is None for b in st.bought):
        return evolve(st, step="more_stalls")  # one more material per stall, from the bag
    if effect == "foreign_merchants" and st.day == "wednesday":
        return evolve(st, step="merchants")
    if effect in ("two_ships_leave", "one_ship_leaves"):  # « quittent le port … décomptés »
        n = 2 if effect == "two_ships_leave" else 1
        return flow.after_ship(flow.sail(st, min(n, len(st.moorings))))
    if effect.startswith("members_home_"):  # « reprendre … jusqu'à trois de ses membres »
        return evolve(st, step="home", home_from=effect.removeprefix("members_home_"),
                       passed=frozenset(), turn=0)
    if effect == "exchange_money":  # « échanger (1:1) … jusqu'à une valeur totale de 5 »
        return evolve(st, step="exchange", passed=frozenset(), turn=0)
    if effect == "good_roll":  # « Chaque joueur lance le dé et reçoit une marchandise »
        return evolve(st, step="good_roll", rolling=st.order or st.players)
    if effect == "extra_hold":  # « Chaque bateau dans le port reçoit dans ce tour 1 soute »
        return flow.day(evolve(st, extra_hold=st.week), st.day)
    if effect == "two_materials_each" and sum(st.bag) > 0:  # « tirer … deux matières premières »
        return evolve(st, step="private_materials")
    if effect == "two_relics":  # « deux nouvelles reliques … sur les deux emplacements »
        return evolve(st, step="extra_relic", extra_relics=2)
    return flow.day(st, st.day)
