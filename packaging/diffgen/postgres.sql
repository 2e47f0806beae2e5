-- The diffgen pattern for PostgreSQL: one journal table and one trigger function shared by
-- every journalled table. The tap needs only SELECT on diffgen and on the journalled tables.
--
-- ts_created is timestamptz: the instant of the change, whatever the session's time zone.
-- The index serves the tap's page query (id after the bookmark, filtered by table name).
CREATE TABLE IF NOT EXISTS diffgen (
    id         bigserial   PRIMARY KEY,
    tablename  text        NOT NULL,
    table_id   text        NOT NULL,
    op         char(1)     NOT NULL CHECK (op IN ('i', 'u', 'd')),
    ts_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS diffgen_tablename_id ON diffgen (tablename, id);

-- Journals one row change. The trigger's argument names the key column; the key is read
-- through to_jsonb so one function serves tables with any key column and type.
CREATE OR REPLACE FUNCTION diffgen_journal() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    changed jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
BEGIN
    -- An update that changes the key removes the old row: journal that as a delete.
    IF TG_OP = 'UPDATE' AND to_jsonb(OLD) ->> TG_ARGV[0] IS DISTINCT FROM changed ->> TG_ARGV[0] THEN
        INSERT INTO diffgen (tablename, table_id, op)
        VALUES (TG_TABLE_NAME, to_jsonb(OLD) ->> TG_ARGV[0], 'd');
    END IF;
    INSERT INTO diffgen (tablename, table_id, op)
    VALUES (TG_TABLE_NAME, changed ->> TG_ARGV[0], lower(left(TG_OP, 1)));
    RETURN NULL;
END
$$;

-- For each journalled table (here: invoices, keyed by id):
--   CREATE TRIGGER invoices_diffgen AFTER INSERT OR UPDATE OR DELETE ON invoices
--       FOR EACH ROW EXECUTE FUNCTION diffgen_journal('id');

-- Optional, for `follow` with `notify_channel`: wakes a following tap the moment a change
-- commits instead of at its next poll. The trigger is on diffgen itself and per statement, and
-- PostgreSQL folds identical notifications of one transaction into one, delivered at commit:
-- one pg_notify per transaction, however many rows it journals. The argument is the channel.
CREATE OR REPLACE FUNCTION diffgen_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_ARGV[0], '');
    RETURN NULL;
END
$$;

-- To use it (here with the channel diffgen_changes, the tap's "notify_channel"):
--   CREATE TRIGGER diffgen_notify AFTER INSERT ON diffgen
--       FOR EACH STATEMENT EXECUTE FUNCTION diffgen_notify('diffgen_changes');
