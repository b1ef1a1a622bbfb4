-- Tournaments: rounds, which people sit at which table in each round, and the rules that
-- rank them (points by place, then the tie-breaks the organiser chose).

CREATE TABLE hall_tournaments (
    id          bigserial   PRIMARY KEY,
    name        text        NOT NULL,
    points      jsonb       NOT NULL,   -- tournament points by place: [3, 2, 1, 0]
    tie_breaks  jsonb       NOT NULL,   -- names from companion.hall.standings.TIE_BREAKS
    created     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE hall_rounds (
    tournament_id bigint      NOT NULL REFERENCES hall_tournaments(id),
    number        integer     NOT NULL CHECK (number >= 1),
    created       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, number)
);

-- a table's seats in a round: {"red": "Alice", ...}; the round's game at that table is the
-- first game the table announces after the assignment (game_id > after_game)
CREATE TABLE hall_assignments (
    tournament_id bigint  NOT NULL,
    round         integer NOT NULL,
    table_name    text    NOT NULL,
    seats         jsonb   NOT NULL,
    after_game    bigint  NOT NULL,
    PRIMARY KEY (tournament_id, round, table_name),
    FOREIGN KEY (tournament_id, round) REFERENCES hall_rounds (tournament_id, number)
);
