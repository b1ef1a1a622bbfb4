"""Rule modules beside the base game: *Le Port* and *Objectifs de vie* (seed 003).

Each module is pure and typed like the rest of the engine. Its printed values live in its
own data file (``data/port.json``, ``data/life_goals.json``) with the same item shape as
``data/board.json``; ``docs/port-and-life-goals.md`` lists the choices made where seed 003
is ambiguous, by rule number (PS…PA, LS…LE).
"""
