"""What is printed on Crecy's cards: the card types (forms) and the values seed 002 gives.

The seed has the rules and about forty cards' effects, not the cards (other-games.md
§4.3): every value below names its source; every other value is unknown and asked at the
table once (`companion.games.cards`). Friend cards are keyed by their printed name, titles
and contributions by theirs, family heads by ``"<card>/<side>"``, the titles and
contributions of a generation by its numeral (``"I"``)."""

from __future__ import annotations

from typing import Any, Final

from companion.games.cards import CardBook, CardType, CardValueError, Field, Printed

from .vocabulary import ACTIVITIES, EXTRA_COLOURS, MENTOR_COUNTS, SEXES

EFFECTS: Final = {
    "none": "no special effect",
    "other": "another effect (the table applies it with corrections)",
    "gold3_if_same_nationality": "+3 gold if another of her/his nationality is in the family",
    "honour2_if_6_cards": "+2 honour if you hold at least 6 friend cards",
    "extra_green": "an extra pawn, green (residence)",
    "extra_orange": "an extra pawn, orange (enterprise)",
    "extra_red": "an extra pawn, red (mission)",
    "extra_blue": "an extra pawn, light blue (fertility)",
    "extra_yellow": "an extra pawn, yellow (title or contribution)",
    "connections_plus_one": "this generation: each Make connections takes 1 more friend card",
    "ask_money_plus_two": "this generation: each Ask friends for money gives 2 more gold",
    "refresh_display_take_one": "discard the friends on display, deal 5 new, take 1",
    "free_marriage": "marrying her/him takes no pawn",
    "free_marriage_if_same_nationality":
        "marrying her/him takes no pawn if another of her/his nationality is in the family",
    "two_children": "her/his couple draws 2 child cards instead of 1",
    "mission_under_mentor": "draw a mission face down under your mentor",
    "choose_child_of_two": "each child card drawn for her/his couple: draw 2, keep 1",
    "swap_cards": "discard any number of friend cards from your hand, draw as many",
    "free_ask_money_if_artisan":
        "ask friends for money without a pawn if another artisan is in the family",
    "free_ask_money_if_english":
        "ask friends for money without a pawn if another English friend is in the family",
    "friends_from_deck": "this generation: friend cards to take may all be drawn from the "
                         "deck instead of the display",
    **{f"residence_less_{what}_if_{field}":
       f"this generation: buying a residence costs 1 {word} less if another of her/his "
       f"{field} is in the family"
       for what, word in (("gold", "gold"), ("card", "friend card"))
       for field in ("nationality", "activity")},
    "bonus_and_honour_if_same_nationality":
        "gain the bonus below and +1 honour if at least «kin» others of her/his nationality "
        "are in the family",
    "bonus_and_honour_if_same_activity":
        "gain the bonus below and +1 honour if at least «kin» others of her/his activity "
        "are in the family",
    "bonus_if_12_gold": "gain the bonus below if you have at least 12 gold (after the dowry)",
}
"""The friend effects the engine applies, by the id a card's form offers (seed 002,
« Précisions sur les cartes » and the worked examples). Erich's four: his card's icons
are lost in the seed (what is 1 less, which kind of friend), so the table picks the one
printed on the card."""

BONUS_EFFECTS: Final = {
    "bonus_and_honour_if_same_nationality": ("bonus_kind", "bonus_amount", "kin"),
    "bonus_and_honour_if_same_activity": ("bonus_kind", "bonus_amount", "kin"),
    "bonus_if_12_gold": ("bonus_kind", "bonus_amount"),
}
"""Effects whose reward the seed's text lost (Aleksandr, Carlos, Jan, Lucienne, Nicolas,
Thomas: « Gagnez [?] et +1 [Honneur] si … un autre [?] »; Sophie: « +2 [?] si … 12 Or »),
with the form's fields the table fills from the card."""
BONUS_KINDS: Final = ("gold", "income", "prestige", "honour", "friends")

MISSION_EFFECTS: Final = {
    "none": "no reward besides honour",
    "other": "another reward (the table applies it with corrections)",
    "counts_as_activity": "kept by the family tree: counts as a card of an activity",
    "contributions_4_less": "this generation: each contribution costs 4 gold less",
}
"""A mission's reward the engine applies when it is validated (« Cartes mission »)."""

FRIEND = CardType("crecy.friend", "the friend card", (
    Field("sex", "choice", "Sex", SEXES),
    Field("nationality", "text", "Nationality (e.g. French, Prussian, Russian)"),
    Field("activity", "choice", "Activity", ACTIVITIES),
    Field("gold", "int", "Dowry received (+) or wedding cost paid (-), in gold", low=-20, high=20),
    Field("income", "int", "Income it brings", low=-5, high=9),
    Field("friends", "int", "Friend cards it brings", low=0, high=5),
    Field("prestige", "int", "Prestige it brings", low=-5, high=9),
    Field("effect", "choice", "Special effect", tuple(EFFECTS)),
    Field("bonus_kind", "choice", "Its bonus: what is gained (effects with a bonus only)",
          BONUS_KINDS, optional=True),
    Field("bonus_amount", "int", "Its bonus: how many", optional=True, low=0, high=9),
    Field("kin", "int", "Its condition: how many others of her/his kind", optional=True,
          low=0, high=4),  # a form's blank number reads 0: "not filled"
))
HEAD = CardType("crecy.head", "the family head's side", (
    Field("income", "int", "Starting income", low=0, high=9),
    Field("gold", "int", "Starting gold", low=0, high=30),
    Field("friends", "int", "Starting friend cards", low=0, high=9),
    Field("prestige", "int", "Starting prestige", low=-5, high=9),
    Field("extra", "choice", "Starting extra pawn", ("none", *EXTRA_COLOURS)),
))
_COSTS = (
    Field("cost_gold", "int", "Cost in gold", low=0, high=20),
    Field("cost_friends", "int", "Cost in friend cards discarded", low=0, high=5),
    Field("cost_income", "int", "Cost in income", low=0, high=5),
    Field("income", "int", "Income gained", low=-5, high=9),
    Field("prestige", "int", "Prestige gained", low=-5, high=9),
    Field("honour", "int", "Honour gained", low=-5, high=20),
    Field("friends", "int", "Friend cards taken", low=0, high=5),
)
MISSION = CardType("crecy.mission", "the mission card", (
    Field("effect", "choice", "Its reward besides honour", tuple(MISSION_EFFECTS)),
    Field("activity", "choice", "The activity it counts as", ("none", *ACTIVITIES)),
))
SOLO_ACTIONS: Final = ("title_contribution", "fertility", "residence", "enterprise", "mission")
SOLO_TABLE = CardType("crecy.solo", "the solo variant's table of", tuple(
    Field(activity, "choice", f"The main-board action a face-up {activity} makes unavailable",
          SOLO_ACTIONS) for activity in ACTIVITIES))
"""« Variante solo standard »: activity → action, printed as icons the seed's text lost;
asked once (card ``"activities"``)."""
BOARD = CardType("crecy.board", "the tracks of the", (
    Field("income_min", "int", "Income track: its lowest value", low=-20, high=60),
    Field("income_max", "int", "Income track: its highest value", low=-20, high=60),
    Field("prestige_min", "int", "Prestige track: its lowest value", low=-20, high=60),
    Field("prestige_max", "int", "Prestige track: its highest value", low=-20, high=60),
))
"""The tracks' ends (not in the seed), asked once when the house rule ``limited_tracks``
holds income and prestige to them (card ``"individual board"``)."""
_KIND = "an activity or a nationality, if the card names one"
MENTOR = CardType("crecy.mentor", "the mentor card", (
    Field("main_count", "choice", "Main objective: what it counts ('other': the table "
          "counts it at the end)", (*MENTOR_COUNTS, "other")),
    Field("main_kind", "text", f"Main objective: only friends of ({_KIND})", optional=True),
    Field("main_row", "int", "Main objective: only in row … of the tree (1–4)",
          optional=True, low=0, high=4),
    Field("main_per", "int", "Main objective: honour for each one counted", low=0, high=9),
    Field("main_plus", "int", "Main objective: honour added (or taken)", low=-20, high=30),
    *(f for i in range(1, 4) for f in (
        Field(f"s{i}_count", "choice", f"Secondary objective {i}: what it counts",
              ("none", *MENTOR_COUNTS)),
        Field(f"s{i}_kind", "text", f"Secondary objective {i}: only friends of ({_KIND})",
              optional=True),
        Field(f"s{i}_row", "int", f"Secondary objective {i}: only in row … of the tree (1–4)",
              optional=True, low=0, high=4),
        Field(f"s{i}_at_least", "int", f"Secondary objective {i}: met from this count",
              optional=True, low=0, high=60),
        Field(f"s{i}_honour", "int", f"Secondary objective {i}: its honour", optional=True,
              low=0, high=30))),
))
"""A mentor's objectives (« Contenu du jeu »: name, main objective, secondary objectives;
none printed in the seed): each a count of something in the family (`mentor.count`); the
main one linear (John Law: 1 per income, +1), a secondary one met from a count. Answered
on its owner's phone (a mentor is secret) and kept by the box once revealed at the end."""
TITLE = CardType("crecy.title", "the title card", _COSTS)
CONTRIBUTION = CardType("crecy.contribution", "the contribution card", _COSTS)
OFFER = CardType("crecy.generation", "the titles and contributions of generation", (
    *(Field(f"title_{i}", "text", f"Title {i} (its name)") for i in (1, 2, 3)),
    *(Field(f"contribution_{i}", "text", f"Contribution {i} (its name)") for i in (1, 2, 3)),
))

TYPES: Final = {t.name: t for t in (FRIEND, HEAD, TITLE, CONTRIBUTION, OFFER, MISSION,
                                     SOLO_TABLE, BOARD, MENTOR)}

_EX = "seed 002"
SHIPPED: Final[dict[tuple[str, str], Printed]] = {
    (FRIEND.name, "Gertrude"): Printed(
        {"sex": "female", "nationality": "Prussian", "gold": 1, "income": 0, "friends": 1,
         "prestige": 1, "effect": "gold3_if_same_nationality"},
        f"{_EX}, Marier, the Gertrude example"),
    (FRIEND.name, "Friedrich"): Printed({"nationality": "Prussian"},
                                        f"{_EX}, Marier, the Gertrude example"),
    (FRIEND.name, "Evgenia"): Printed(
        {"sex": "female", "income": 0, "friends": 2, "prestige": 1, "effect": "extra_yellow"},
        f"{_EX}, Début d'une génération, the Ann and Evgenia example"),
    (FRIEND.name, "Ann"): Printed(
        {"sex": "female", "income": 0, "friends": 1, "effect": "honour2_if_6_cards"},
        f"{_EX}, Début d'une génération, the Ann and Evgenia example"),
    (FRIEND.name, "Pierre"): Printed({"effect": "extra_red"},
                                     f"{_EX}, Nombre d'actions, the extra-pawn example"),
    (FRIEND.name, "Claire"): Printed({"effect": "connections_plus_one"},
                                     f"{_EX}, Précisions sur les cartes, Claire"),
    (FRIEND.name, "Fehmi"): Printed({"sex": "female", "effect": "refresh_display_take_one"},
                                    f"{_EX}, Précisions sur les cartes, Fehmi"),
    (FRIEND.name, "Ariane"): Printed({"sex": "female", "effect": "free_marriage"},
                                     f"{_EX}, Précisions sur les cartes, Ariane"),
    (FRIEND.name, "Leonid"): Printed(
        {"sex": "male", "nationality": "Russian", "effect": "free_marriage_if_same_nationality"},
        f"{_EX}, Précisions sur les cartes, Leonid"),
    (FRIEND.name, "Maria"): Printed(
        {"sex": "female", "nationality": "Spanish",
         "effect": "free_marriage_if_same_nationality"},
        f"{_EX}, Précisions sur les cartes, Maria"),
    (FRIEND.name, "Bernadette"): Printed({"sex": "female", "effect": "two_children"},
                                         f"{_EX}, Précisions sur les cartes, Bernadette"),
    (FRIEND.name, "Nancy"): Printed({"sex": "female", "effect": "two_children"},
                                    f"{_EX}, Précisions sur les cartes, Nancy"),
    (FRIEND.name, "George"): Printed({"effect": "mission_under_mentor"},
                                     f"{_EX}, Précisions sur les cartes, George"),
    (FRIEND.name, "Hans Heinrich"): Printed(
        {"effect": "free_ask_money_if_artisan"},
        f"{_EX}, Précisions sur les cartes, Hans Heinrich"),
    (FRIEND.name, "Robert"): Printed({"effect": "free_ask_money_if_english"},
                                     f"{_EX}, Précisions sur les cartes, Robert"),
    (FRIEND.name, "Eustachy"): Printed({"sex": "male", "effect": "choose_child_of_two"},
                                       f"{_EX}, Précisions sur les cartes, Eustachy"),
    (FRIEND.name, "Margarethe"): Printed({"sex": "female", "effect": "choose_child_of_two"},
                                         f"{_EX}, Précisions sur les cartes, Margarethe"),
    (FRIEND.name, "Isabella"): Printed({"effect": "swap_cards"},
                                       f"{_EX}, Précisions sur les cartes, Isabella"),
    (FRIEND.name, "Miranda"): Printed({"effect": "ask_money_plus_two"},
                                      f"{_EX}, Précisions sur les cartes, Miranda"),
    (FRIEND.name, "Roger"): Printed(
        {"activity": "aristocrat", "effect": "friends_from_deck"},
        f"{_EX}, Précisions sur les cartes, Roger; his activity: the « Généalogie » example"),
    (MISSION.name, "Une machine révolutionnaire"): Printed(
        {"effect": "counts_as_activity"}, f"{_EX}, Cartes mission (its activity's icon is lost)"),
    (MISSION.name, "Une nouvelle guilde des artisans"): Printed(
        {"effect": "counts_as_activity"}, f"{_EX}, Cartes mission (its activity's icon is lost)"),
    (MISSION.name, "Une fresque pour la cathédrale"): Printed(
        {"effect": "contributions_4_less", "activity": "none"}, f"{_EX}, Cartes mission"),
    (SOLO_TABLE.name, "activities"): Printed(
        {"scientist": "fertility"},
        f"{_EX}, Variante solo standard, the example (the scientist taken, the fertility "
        "specialist is open again)"),
    **{(FRIEND.name, n): Printed({"kin": 1}, f"{_EX}, Précisions sur les cartes, {n}")
       for n in ("Carlos", "Lucienne", "Nicolas", "Thomas")},
    (FRIEND.name, "Jan"): Printed({"bonus_amount": 1, "kin": 1},
                                  f"{_EX}, Précisions sur les cartes, Jan"),
    (FRIEND.name, "Aleksandr"): Printed({"bonus_amount": 1, "kin": 2},
                                        f"{_EX}, Précisions sur les cartes, Aleksandr"),
    (FRIEND.name, "Sophie"): Printed({"effect": "bonus_if_12_gold", "bonus_amount": 2},
                                     f"{_EX}, Précisions sur les cartes, Sophie"),
    (TITLE.name, "Comte"): Printed(
        {"cost_gold": 4, "cost_friends": 2, "cost_income": 0, "income": 1, "prestige": 2,
         "honour": 0, "friends": 0},
        f"{_EX}, Acquérir un titre, the example (printed there as 'Conte')"),
    (CONTRIBUTION.name, "Ballet à la Cour"): Printed(
        {"cost_gold": 2, "cost_friends": 0, "cost_income": 1, "income": 0, "prestige": 2,
         "honour": 1, "friends": 0},
        f"{_EX}, Contribuer à la vie publique, the example"),
    (OFFER.name, "I"): Printed({"title_1": "Comte"}, f"{_EX}, the Count example (generation I)"),
    (OFFER.name, "II"): Printed({"contribution_1": "Ballet à la Cour"},
                                f"{_EX}, the court ballet example (generation II)"),
}
"""Printed values the seed gives, each with where (a value left out is unknown)."""


def check_friend(card: str, values: dict[str, Any]) -> None:
    """A friend card's answer whose effect has blanks must fill them. Raises
    CardValueError naming the missing fields."""
    missing = [f for f in BONUS_EFFECTS.get(str(values.get("effect")), ())
               if values.get(f) is None or (f == "kin" and values[f] == 0)]
    if missing:
        raise CardValueError(f"{card}: the effect {values['effect']} needs {missing} "
                             "filled from the card")


def check_mentor(card: str, values: dict[str, Any]) -> None:
    """A mentor's secondary objective that counts something must say from how many and
    its honour. Raises CardValueError naming the missing fields."""
    missing = [f"s{i}_{k}" for i in range(1, 4) if values.get(f"s{i}_count") != "none"
               for k in ("at_least", "honour") if values.get(f"s{i}_{k}") is None]
    if missing:
        raise CardValueError(f"{card}: {missing} are needed for the objectives it counts")


def book(learned: object = None) -> CardBook:
    """Crecy's book: the seed's values and ``learned`` (`CardBook.learned_json` form).
    Raises CardValueError for a bad learned answer."""
    return CardBook(TYPES, SHIPPED).with_learned_json(learned)
