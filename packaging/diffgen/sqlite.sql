-- The diffgen pattern for SQLite: one journal table and three triggers per journalled table,
-- which the view diffgen_triggers writes out (a SQLite trigger belongs to one table and has no
-- dynamic SQL, so none can be shared). The tap opens the database file read-only and never
-- takes a write lock.
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

-- The prune record: the highest id ever deleted from diffgen, in one row, kept by a trigger on
-- diffgen's DELETE. With it the tap knows whether a retention job deleted events it had not
-- read yet, instead of guessing from a gap below the oldest event, which ids rolled back
-- right after a prune also leave (docs/journal.md). Its name is the journal's name with
-- _pruned, in the journal's schema. Installed on a log pruned before, it counts every id below
-- the oldest event (on an empty log, every id handed out) as pruned.
CREATE TABLE IF NOT EXISTS diffgen_pruned (
    only_row          INTEGER PRIMARY KEY CHECK (only_row = 1),
    highest_pruned_id INTEGER NOT NULL
);
INSERT OR IGNORE INTO diffgen_pruned (only_row, highest_pruned_id)
SELECT 1, coalesce((SELECT min(id) - 1 FROM diffgen),
                   (SELECT seq FROM sqlite_sequence WHERE name = 'diffgen'), 0);
CREATE TRIGGER IF NOT EXISTS diffgen_note_pruned AFTER DELETE ON diffgen BEGIN
    UPDATE diffgen_pruned SET highest_pruned_id = OLD.id WHERE highest_pruned_id < OLD.id;
END;

-- diffgen_triggers: the CREATE TRIGGER statements that journal each table of the database
-- that has a primary key, three rows per table, in the columns table_name, trigger_name and
-- trigger_sql. To journal a table, run its statements, e.g. with the sqlite3 shell:
--   sqlite3 app.db "SELECT trigger_sql FROM diffgen_triggers WHERE table_name = 'invoices'" |
--       sqlite3 app.db
-- - INSERT and DELETE journal the new or the old key. UPDATE journals the new key, after a
--   delete of the old one when the update changed the key.
-- - The key is the primary key's column, or for a composite key the JSON array of its values
--   in key order ([1001, "A-7"]), which the tap's pk_column list reads.
-- - A key changes when its bytes change: the comparison is COLLATE BINARY, so 'Abc' -> 'abc'
--   under NOCASE and 'a' -> 'a ' under RTRIM journal the old key's delete; the column's own
--   collation would call them equal and leave the old row in the replica.
-- - The journal name is the table's name, the tap's default journal_name; a table of an
--   attached schema whose name is taken writes 'schema.invoices' instead (edit the literal)
--   and sets "journal_name": "schema.invoices". For a key other than the primary key, edit
--   the column names.
-- The statements for order_lines, keyed by order_id and line_no (for invoices, keyed by id,
-- the key is NEW."id" and the comparison OLD."id" IS NOT NEW."id" COLLATE BINARY):
--   CREATE TRIGGER "order_lines_diffgen_i" AFTER INSERT ON "order_lines" BEGIN
--       INSERT INTO diffgen (tablename, table_id, op)
--       VALUES ('order_lines', json_array(NEW."order_id", NEW."line_no"), 'i');
--   END;
--   CREATE TRIGGER "order_lines_diffgen_u" AFTER UPDATE ON "order_lines" BEGIN
--       INSERT INTO diffgen (tablename, table_id, op)
--       SELECT 'order_lines', json_array(OLD."order_id", OLD."line_no"), 'd'
--        WHERE OLD."order_id" IS NOT NEW."order_id" COLLATE BINARY
--           OR OLD."line_no" IS NOT NEW."line_no" COLLATE BINARY;
--       INSERT INTO diffgen (tablename, table_id, op)
--       VALUES ('order_lines', json_array(NEW."order_id", NEW."line_no"), 'u');
--   END;
--   CREATE TRIGGER "order_lines_diffgen_d" AFTER DELETE ON "order_lines" BEGIN
--       INSERT INTO diffgen (tablename, table_id, op)
--       VALUES ('order_lines', json_array(OLD."order_id", OLD."line_no"), 'd');
--   END;
DROP VIEW IF EXISTS diffgen_triggers;
CREATE VIEW diffgen_triggers (table_name, trigger_name, trigger_sql) AS
WITH RECURSIVE
    -- The key columns of every table, quoted, by their place in the primary key.
    -- A column of BLOB affinity journals its canonical key text, lowercase hex.
    key_column (table_name, place, quoted, new_value, old_value) AS (
        SELECT t.name, c.pk, '"' || replace(c.name, '"', '""') || '"',
               iif(instr(upper(c.type), 'BLOB') > 0,
                   'lower(hex(NEW."' || replace(c.name, '"', '""') || '"))',
                   'NEW."' || replace(c.name, '"', '""') || '"'),
               iif(instr(upper(c.type), 'BLOB') > 0,
                   'lower(hex(OLD."' || replace(c.name, '"', '""') || '"))',
                   'OLD."' || replace(c.name, '"', '""') || '"')
          FROM sqlite_schema AS t, pragma_table_info(t.name) AS c
         WHERE t.type = 'table' AND t.name NOT LIKE 'sqlite\_%' ESCAPE '\'
           AND t.name <> 'diffgen' AND c.pk > 0),
    -- The key's values and its comparison, one column more at every step.
    key_list (table_name, place, new_values, old_values, changed) AS (
        SELECT table_name, place, new_value, old_value,
               'OLD.' || quoted || ' IS NOT NEW.' || quoted || ' COLLATE BINARY'
          FROM key_column WHERE place = 1
        UNION ALL
        SELECT l.table_name, c.place, l.new_values || ', ' || c.new_value,
               l.old_values || ', ' || c.old_value,
               l.changed || char(10) || '          OR OLD.' || c.quoted || ' IS NOT NEW.' ||
                   c.quoted || ' COLLATE BINARY'
          FROM key_list AS l JOIN key_column AS c
            ON c.table_name = l.table_name AND c.place = l.place + 1),
    keyed (table_name, name, new_key, old_key, changed) AS (
        SELECT l.table_name, quote(l.table_name),
               iif(l.place = 1, l.new_values, 'json_array(' || l.new_values || ')'),
               iif(l.place = 1, l.old_values, 'json_array(' || l.old_values || ')'), l.changed
          FROM key_list AS l
         WHERE l.place = (SELECT max(c.place) FROM key_column AS c
                           WHERE c.table_name = l.table_name)),
    event (op, timing) AS (VALUES ('i', 'INSERT'), ('u', 'UPDATE'), ('d', 'DELETE'))
SELECT k.table_name, k.table_name || '_diffgen_' || e.op,
       'CREATE TRIGGER "' || replace(k.table_name || '_diffgen_' || e.op, '"', '""') ||
       '" AFTER ' || e.timing || ' ON "' || replace(k.table_name, '"', '""') || '" BEGIN' ||
       char(10) || '    INSERT INTO diffgen (tablename, table_id, op)' || char(10) || '    ' ||
       CASE e.op
           WHEN 'i' THEN 'VALUES (' || k.name || ', ' || k.new_key || ', ''i'');'
           WHEN 'd' THEN 'VALUES (' || k.name || ', ' || k.old_key || ', ''d'');'
           ELSE 'SELECT ' || k.name || ', ' || k.old_key || ', ''d''' || char(10) ||
                '     WHERE ' || k.changed || ';' || char(10) ||
                '    INSERT INTO diffgen (tablename, table_id, op)' || char(10) ||
                '    VALUES (' || k.name || ', ' || k.new_key || ', ''u'');'
       END || char(10) || 'END;'
  FROM keyed AS k CROSS JOIN event AS e;

-- SQLite has no TRUNCATE. DELETE FROM a table without WHERE empties it at once only when the
-- table has no triggers; with these, it deletes row by row and journals every row. DROP TABLE
-- journals nothing: the replica keeps the rows.
