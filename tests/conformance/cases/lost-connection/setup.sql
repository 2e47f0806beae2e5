-- One row behind a condition that keeps the server busy for 3 s: the server ends the plugin's
-- session while the statement runs (writer.sql).
DROP VIEW IF EXISTS tdg_conf_lost;
DROP TABLE IF EXISTS tdg_conf_lost_rows;
CREATE TABLE tdg_conf_lost_rows (
    id      integer PRIMARY KEY,
    payload text
);
INSERT INTO tdg_conf_lost_rows VALUES (1, 'x');
CREATE VIEW tdg_conf_lost AS
    SELECT id, payload FROM tdg_conf_lost_rows WHERE pg_sleep(3)::text = '';
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_lost TO PUBLIC;
