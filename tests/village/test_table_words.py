"""Words at the table (issue 18 items 10 and 15): who may die is said by generation and
place, never by the letters that only tell alike figures apart in the log; a birth and a
death carry no cost line ("costs nothing" where nothing could cost)."""

from __future__ import annotations

import random
import re

from companion import village as v
from companion.bags import draw_with_rng
from companion.village.narrate import now_text
from companion.village.options import choice

LETTERED = re.compile(r"\b\d[a-d]\b")  # "1a", "2c": a figure's letter


def test_who_may_die_is_said_by_generation_and_place() -> None:
    rng = random.Random(2)
    deaths = births = 0
    for seed in range(3):
        st = v.new_game(["red", "yellow", "blue"][: 2 + seed % 2])
        for _ in range(900):
            if st.phase == "over":
                break
            spec = v.chance_spec(st)
            if spec is not None:
                st = v.apply(st, draw_with_rng(spec, rng))
                continue
            options = v.legal_actions(st)
            if st.phase == "death":
                deaths += 1
                said = now_text(st)
                assert "generation dies" in said and not LETTERED.search(said), said
                for o in options:
                    ch = choice(st, o)
                    assert not LETTERED.search(" ".join(ch["steps"])), ch["steps"]
                    assert "generation" in ch["steps"][0] and ch["cost_text"] == ""
            for o in options:
                if o.type == "birth":
                    births += 1
                    assert choice(st, o)["cost_text"] == ""
            st = v.apply(st, rng.choice(options))
    assert deaths >= 3 and births >= 3
