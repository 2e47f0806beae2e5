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

-- Journals one row change. The trigger's first argument names the key column; the key is
-- read through to_jsonb so one function serves tables with any key column and type. The
-- journal name is the bare table name (the tap's default journal_name); a second argument
-- 'qualified' writes schema.table instead, for two schemas that share a table name (the
-- tap's tables then set "journal_name": "schema.table").
CREATE OR REPLACE FUNCTION diffgen_journal() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    changed jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
    journal_name text := CASE WHEN TG_NARGS > 1 AND TG_ARGV[1] = 'qualified'
                              THEN TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME
                              ELSE TG_TABLE_NAME END;
BEGIN
    -- An update that changes the key removes the old row: journal that as a delete.
    IF TG_OP = 'UPDATE' AND to_jsonb(OLD) ->> TG_ARGV[0] IS DISTINCT FROM changed ->> TG_ARGV[0] THEN
        INSERT INTO diffgen (tablename, table_id, op)
        VALUES (journal_name, to_jsonb(OLD) ->> TG_ARGV[0], 'd');
    END IF;
    INSERT INTO diffgen (tablename, table_id, op)
    VALUES (journal_name, changed ->> TG_ARGV[0], lower(left(TG_OP, 1)));
    RETURN NULL;
END
$$;

-- For each journalled table (here: invoices, keyed by id):
--   CREATE TRIGGER invoices_diffgen AFTER INSERT OR UPDATE OR DELETE ON invoices
--       FOR EACH ROW EXECUTE FUNCTION diffgen_journal('id');
-- Where sales.invoices and billing.invoices are both journalled:
--   CREATE TRIGGER invoices_diffgen AFTER INSERT OR UPDATE OR DELETE ON sales.invoices
--       FOR EACH ROW EXECUTE FUNCTION diffgen_journal('id', 'qualified');
