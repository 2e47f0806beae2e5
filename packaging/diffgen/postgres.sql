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

-- Journals one row change. The trigger's first argument names the key column, or for a
-- composite key its columns separated by commas; the key is read through to_jsonb so one
-- function serves tables with any key columns and types. A composite key is journalled as the
-- JSON array of its values in that order ([1001, "A-7"]), which the tap's pk_column list
-- reads. The journal name is the bare table name (the tap's default journal_name); a second
-- argument 'qualified' writes schema.table instead, for two schemas that share a table name
-- (the tap's tables then set "journal_name": "schema.table").
CREATE OR REPLACE FUNCTION diffgen_journal() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    key_columns text[] := string_to_array(TG_ARGV[0], ',');
    journal_name text := CASE WHEN TG_NARGS > 1 AND TG_ARGV[1] = 'qualified'
                              THEN TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME
                              ELSE TG_TABLE_NAME END;
    new_key text;
    old_key text;
BEGIN
    IF TG_OP <> 'DELETE' THEN
        new_key := diffgen_key(to_jsonb(NEW), key_columns);
    END IF;
    IF TG_OP <> 'INSERT' THEN
        old_key := diffgen_key(to_jsonb(OLD), key_columns);
    END IF;
    -- An update that changes the key removes the old row: journal that as a delete.
    IF TG_OP = 'UPDATE' AND old_key IS DISTINCT FROM new_key THEN
        INSERT INTO diffgen (tablename, table_id, op) VALUES (journal_name, old_key, 'd');
    END IF;
    INSERT INTO diffgen (tablename, table_id, op)
    VALUES (journal_name, COALESCE(new_key, old_key), lower(left(TG_OP, 1)));
    RETURN NULL;
END
$$;

-- The key of a row as diffgen.table_id: the value's text for one key column, the JSON array
-- of the values for several.
CREATE OR REPLACE FUNCTION diffgen_key(row_value jsonb, key_columns text[]) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN cardinality(key_columns) = 1 THEN row_value ->> key_columns[1]
                ELSE (SELECT jsonb_agg(row_value -> k.name ORDER BY k.position)::text
                      FROM unnest(key_columns) WITH ORDINALITY AS k(name, position)) END
$$;

-- For each journalled table (here: invoices, keyed by id):
--   CREATE TRIGGER invoices_diffgen AFTER INSERT OR UPDATE OR DELETE ON invoices
--       FOR EACH ROW EXECUTE FUNCTION diffgen_journal('id');
-- A table with a composite key (order_lines, keyed by order_id and line_no):
--   CREATE TRIGGER order_lines_diffgen AFTER INSERT OR UPDATE OR DELETE ON order_lines
--       FOR EACH ROW EXECUTE FUNCTION diffgen_journal('order_id,line_no');
-- Where sales.invoices and billing.invoices are both journalled:
--   CREATE TRIGGER invoices_diffgen AFTER INSERT OR UPDATE OR DELETE ON sales.invoices
--       FOR EACH ROW EXECUTE FUNCTION diffgen_journal('id', 'qualified');

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
