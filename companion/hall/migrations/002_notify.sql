-- The hall pages' live updates: every change of a table's state or a new game is announced
-- on the channel 'hall' (payload: the table's name), read by the page server's LISTEN.

CREATE FUNCTION hall_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('hall', NEW.table_name);
    RETURN NULL;
END;
$$;

CREATE TRIGGER hall_states_notify AFTER INSERT OR UPDATE ON hall_states
    FOR EACH ROW EXECUTE FUNCTION hall_notify();
CREATE TRIGGER hall_games_notify AFTER INSERT ON hall_games
    FOR EACH ROW EXECUTE FUNCTION hall_notify();

-- every game's latest public state (hall_states keeps only each table's current one): the
-- final state of a finished game gives its result, for the history and the tournaments
CREATE TABLE hall_game_states (
    table_name  text        NOT NULL,
    game_id     bigint      NOT NULL,
    seq         integer     NOT NULL,
    state       jsonb       NOT NULL,
    over        boolean     NOT NULL DEFAULT false,
    received    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_name, game_id)
);
