"""The decks: child cards drawn one at a time (the engine decides whether drawing goes on),
friend cards reported by name, the friend display and its refill.

Child draws (« Avoir des enfants », « Complications à la naissance »): a ``child_draw``
step names the couple's member, how many children are still to draw (``left``), the sex
wanted when drawing until it (``until``: the rejected cards go back, shuffled), and the
draw's mode. A complication is kept by the player, who then ignores complications until the
generation ends."""

from __future__ import annotations

from companion.games.errors import IllegalAction

from .box import FRIEND
from .solo import REMOVED_FRIENDS
from .state import Member, Player, State, Step
from .vocabulary import DISPLAY, SEX_OF_CHILD


def reserve_open(st: State) -> bool:
    """Whether the reserve is shuffled in when the deck is empty: always, or (house rule
    ``reserve_only_in_generation_3``, setup 2b read to the letter) in generation III."""
    return st.gen >= 3 or not st.house.get("reserve_only_in_generation_3")


def child_cards(st: State) -> dict[str, int]:
    """What a child draw may bring now: the deck, or the generation III reserve once the
    deck is empty (setup 2b; see docs/crecy.md for an empty deck before generation III)."""
    if sum(st.child_deck.values()) == 0 and reserve_open(st):
        return {k: v for k, v in st.child_reserve.items() if v}
    return {k: v for k, v in st.child_deck.items() if v}


def take_child_card(st: State, card: str) -> None:
    """Take ``card`` from the deck (the reserve shuffled in when the deck is empty).
    Raises IllegalAction when none is left."""
    if sum(st.child_deck.values()) == 0 and sum(st.child_reserve.values()) > 0 and \
            reserve_open(st):
        st.child_deck, st.child_reserve = dict(st.child_reserve), {}
    if st.child_deck.get(card, 0) <= 0:
        raise IllegalAction(f"illegal: child card {card!r} — none is left in the child deck "
                            f"({st.child_deck})", code="deck_empty")
    st.child_deck[card] -= 1


def start_child_draws(st: State, p: Player, m: Member, n: int, until: str | None = None,
                      cause: str = "birth") -> None:
    """Queue ``n`` child draws for ``m``'s couple at the front of what is waited for."""
    st.todo.insert(0, child_step(p, m, n, until, cause))


def child_step(p: Player, m: Member, n: int, until: str | None = None,
               cause: str = "birth") -> Step:
    return Step("child_draw", p.id, {"member": m.id, "left": n, "until": until,
                                     "cause": cause})


def place_child(st: State, p: Player, m: Member, card: str, effect: str | None) -> Member:
    child = Member(st.new_id(), m.gen + 1, SEX_OF_CHILD[card], card, parent=m.id)
    if effect:
        child.attached["effect"] = effect
    p.family.append(child)
    p.fresh.add(child.id)
    m.children += 1
    p.born += 1
    return child


def friends_left(st: State) -> int:
    return st.friend_fresh + len(st.friend_recycled) + len(st.friend_discard)


def friend_step(n: int, to: str) -> Step:
    return Step("friend_draw", None, {"left": n, "to": to})


def queue_friend_draws(st: State, n: int, to: str, front: bool = True) -> None:
    """``n`` friend cards to deal to the display (``to`` = ``display``) or a hand."""
    step = friend_step(n, to)
    if front:
        st.todo.insert(0, step)
    else:
        st.todo.append(step)


def seen(st: State) -> set[str]:
    """Every friend card the engine knows to be out of the deck."""
    out = set(st.display) | set(st.friend_discard) | set(st.friend_recycled)
    for p in st.players:
        out |= set(p.hand)
        out |= {m.spouse for m in p.family if m.spouse}
    return out


def reshuffle_if_empty(st: State) -> None:
    """An empty friend deck takes the shuffled discard at once (« Règles d'or »)."""
    if st.friend_fresh == 0 and not st.friend_recycled:
        st.friend_recycled, st.friend_discard = list(st.friend_discard), []


def draw_friend(st: State, name: str) -> None:
    """Take the friend card ``name`` off the deck (reshuffling the discard when the deck
    is empty, « Règles d'or »). Raises IllegalAction for a card that cannot be there."""
    reshuffle_if_empty(st)
    if st.solo and name in REMOVED_FRIENDS:
        raise IllegalAction(f"illegal: friend {name!r} — out of the game in the solo variant "
                            "(« Variante solo standard »)", code="solo_removed")
    if name in st.friend_recycled:
        st.friend_recycled.remove(name)
        return
    if not isinstance(name, str) or not name.strip():
        raise IllegalAction(f"illegal: friend {name!r} — a friend card is named as printed",
                            code="bad_name")
    if name in seen(st):
        raise IllegalAction(f"illegal: friend {name!r} — that card is already in play",
                            code="card_in_play")
    if st.friend_fresh <= 0:
        raise IllegalAction(f"illegal: friend {name!r} — the friend deck holds only cards "
                            "already seen", code="deck_empty")
    st.friend_fresh -= 1


def takeable(st: State, step: Step) -> list[str]:
    """The display's cards a ``take_friend`` step may take: any, or (Don Juan) those of the
    sex it names, a card whose values are unknown counting while it is asked."""
    sex = step.data.get("sex")
    if not sex:
        return list(st.display)
    out = []
    for name in st.display:
        values = st.book.values(FRIEND.name, name)
        if values is None or values["sex"] == sex:
            out.append(name)
    return out


def after_taking(st: State, p: Player) -> None:
    """« Nouer des relations », rappel: never one card alone on the display (taken free),
    and an empty display is refilled with 5."""
    if len(st.display) == 1:
        p.hand.append(st.display.pop())
    if not st.display:
        queue_friend_draws(st, min(DISPLAY, friends_left(st)), "display")
