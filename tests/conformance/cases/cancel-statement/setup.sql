-- One row behind a condition that keeps the server busy for 5 s (statement_seconds) before it
-- sends the row: a cancel must interrupt the statement, not wait for its first batch.
DROP VIEW IF EXISTS tdg_conf_slow;
DROP TABLE IF EXISTS tdg_conf_slow_rows;
CREATE TABLE tdg_conf_slow_rows (
    id      integer PRIMARY KEY,
    payload text
);
INSERT INTO tdg_conf_slow_rows VALUES (1, 'x');
CREATE VIEW tdg_conf_slow AS
    SELECT id, payload FROM tdg_conf_slow_rows WHERE pg_sleep(5)::text = '';
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_slow TO PUBLIC;
