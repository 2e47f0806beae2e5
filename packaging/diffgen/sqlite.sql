-- The diffgen pattern for SQLite: one journal table and three triggers per journalled table
-- (a SQLite trigger belongs to one table and has no dynamic SQL, so none can be shared). The
-- tap opens the database file read-only and never takes a write lock.
--
-- id is AUTOINCREMENT: SQLite then never hands out an id again, even after the newest diffgen
-- rows were deleted (pruning), so no change can get an id at or below a bookmark the tap has
-- already saved. Plain INTEGER PRIMARY KEY would reuse the ids of deleted rows at the top.
-- ts_created is ISO 8601 text in UTC, since SQLite has no timestamp type; 'now' is stable within
-- one statement. The index serves the tap's page query (id after the bookmark, by table name).
CREATE TABLE IF NOT EXISTS diffgen (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    tablename  TEXT NOT NULL,
    table_id   TEXT NOT NULL,
    op         TEXT NOT NULL CHECK (op IN ('i', 'u', 'd')),
    ts_created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'))
);
CREATE INDEX IF NOT EXISTS diffgen_tablename_id ON diffgen (tablename, id);

-- For each journalled table (here: invoices, keyed by id):
--   CREATE TRIGGER invoices_diffgen_i AFTER INSERT ON invoices BEGIN
--       INSERT INTO diffgen (tablename, table_id, op) VALUES ('invoices', NEW.id, 'i');
--   END;
--   CREATE TRIGGER invoices_diffgen_u AFTER UPDATE ON invoices BEGIN
--       -- An update that changes the key removes the old row: journal that as a delete.
--       INSERT INTO diffgen (tablename, table_id, op)
--           SELECT 'invoices', OLD.id, 'd' WHERE OLD.id IS NOT NEW.id;
--       INSERT INTO diffgen (tablename, table_id, op) VALUES ('invoices', NEW.id, 'u');
--   END;
--   CREATE TRIGGER invoices_diffgen_d AFTER DELETE ON invoices BEGIN
--       INSERT INTO diffgen (tablename, table_id, op) VALUES ('invoices', OLD.id, 'd');
--   END;
-- A table with a composite key (order_lines, keyed by order_id and line_no) journals the key as
-- the JSON array of its values in key order, which the tap's pk_column list reads:
--   CREATE TRIGGER order_lines_diffgen_i AFTER INSERT ON order_lines BEGIN
--       INSERT INTO diffgen (tablename, table_id, op)
--           VALUES ('order_lines', json_array(NEW.order_id, NEW.line_no), 'i');
--   END;
--   CREATE TRIGGER order_lines_diffgen_u AFTER UPDATE ON order_lines BEGIN
--       INSERT INTO diffgen (tablename, table_id, op)
--           SELECT 'order_lines', json_array(OLD.order_id, OLD.line_no), 'd'
--           WHERE OLD.order_id IS NOT NEW.order_id OR OLD.line_no IS NOT NEW.line_no;
--       INSERT INTO diffgen (tablename, table_id, op)
--           VALUES ('order_lines', json_array(NEW.order_id, NEW.line_no), 'u');
--   END;
--   CREATE TRIGGER order_lines_diffgen_d AFTER DELETE ON order_lines BEGIN
--       INSERT INTO diffgen (tablename, table_id, op)
--           VALUES ('order_lines', json_array(OLD.order_id, OLD.line_no), 'd');
--   END;
-- The literal is the table's journal name: the bare name is the tap's default journal_name;
-- a table of an attached schema whose name is taken writes 'schema.invoices' and sets
-- "journal_name": "schema.invoices".
