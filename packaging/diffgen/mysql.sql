-- The diffgen pattern for MySQL and MariaDB: one journal table and three triggers per
-- journalled table. The tap needs only SELECT on diffgen and on the journalled tables (plus
-- PROCESS, so it can see running transactions and never skip an id they still hold).
--
-- ts_created is TIMESTAMP(6), not DATETIME: TIMESTAMP stores the instant, so the value does
-- not depend on the time zone of the session that made the change.
CREATE TABLE IF NOT EXISTS diffgen (
    id         BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tablename  VARCHAR(128) NOT NULL,
    table_id   VARCHAR(255) NOT NULL,
    op         CHAR(1)      NOT NULL,
    ts_created TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    KEY diffgen_tablename_id (tablename, id)
);

-- For each journalled table (here: invoices, keyed by id):
--   CREATE TRIGGER invoices_diffgen_i AFTER INSERT ON invoices FOR EACH ROW
--       INSERT INTO diffgen (tablename, table_id, op) VALUES ('invoices', NEW.id, 'i');
--   CREATE TRIGGER invoices_diffgen_u AFTER UPDATE ON invoices FOR EACH ROW
--       INSERT INTO diffgen (tablename, table_id, op)
--       SELECT 'invoices', OLD.id, 'd' FROM DUAL WHERE NOT (OLD.id <=> NEW.id)
--       UNION ALL SELECT 'invoices', NEW.id, 'u';
--   CREATE TRIGGER invoices_diffgen_d AFTER DELETE ON invoices FOR EACH ROW
--       INSERT INTO diffgen (tablename, table_id, op) VALUES ('invoices', OLD.id, 'd');
-- A table with a composite key (order_lines, keyed by order_id and line_no) journals the key as
-- the JSON array of its values in key order, which the tap's pk_column list reads:
--   CREATE TRIGGER order_lines_diffgen_i AFTER INSERT ON order_lines FOR EACH ROW
--       INSERT INTO diffgen (tablename, table_id, op)
--       VALUES ('order_lines', JSON_ARRAY(NEW.order_id, NEW.line_no), 'i');
--   CREATE TRIGGER order_lines_diffgen_u AFTER UPDATE ON order_lines FOR EACH ROW
--       INSERT INTO diffgen (tablename, table_id, op)
--       SELECT 'order_lines', JSON_ARRAY(OLD.order_id, OLD.line_no), 'd' FROM DUAL
--           WHERE NOT (OLD.order_id <=> NEW.order_id AND OLD.line_no <=> NEW.line_no)
--       UNION ALL SELECT 'order_lines', JSON_ARRAY(NEW.order_id, NEW.line_no), 'u';
--   CREATE TRIGGER order_lines_diffgen_d AFTER DELETE ON order_lines FOR EACH ROW
--       INSERT INTO diffgen (tablename, table_id, op)
--       VALUES ('order_lines', JSON_ARRAY(OLD.order_id, OLD.line_no), 'd');
-- The literal is the table's journal name: the bare name is the tap's default journal_name.
-- Where two databases (schemas) journalled into one diffgen share a table name, write
-- 'sales.invoices' in that table's triggers and set "journal_name": "sales.invoices".
