-- The hall's first schema: every table's games and events as the tables published them.
-- Keyed (table, game, seq): a message delivered twice is stored once.

CREATE TABLE hall_games (
    table_name  text        NOT NULL,
    game_id     bigint      NOT NULL,
    header      jsonb       NOT NULL,   -- the public header: players, modules...
    received    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_name, game_id)
);

CREATE TABLE hall_events (
    table_name  text        NOT NULL,
    game_id     bigint      NOT NULL,
    seq         integer     NOT NULL CHECK (seq >= 1),
    kind        text        NOT NULL CHECK (kind IN ('action', 'revert')),
    type        text,
    source      text,
    time        text,                   -- the table's UTC time, ISO 8601
    action      jsonb,                  -- the public form; NULL for a revert
    reverts     integer,                -- the seq a revert undoes
    draw        jsonb,                  -- a virtual draw's audit, private seeds withheld
    message     jsonb       NOT NULL,   -- the message as received
    received    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_name, game_id, seq)
);

-- the last seq of each game stored without a gap (what the hall acknowledges)
CREATE TABLE hall_progress (
    table_name  text    NOT NULL,
    game_id     bigint  NOT NULL,
    acked       integer NOT NULL,
    PRIMARY KEY (table_name, game_id)
);

-- each table's latest public state (from its retained message)
CREATE TABLE hall_states (
    table_name  text        PRIMARY KEY,
    game_id     bigint      NOT NULL,
    seq         integer     NOT NULL,
    state       jsonb       NOT NULL,
    received    timestamptz NOT NULL DEFAULT now()
);
