-- SQLite has no sleep: the view's condition counts to 20 million before the first row, some
-- seconds of work that sqlite3_interrupt stops at once.
DROP VIEW IF EXISTS tdg_conf_slow;
DROP TABLE IF EXISTS tdg_conf_slow_rows;
CREATE TABLE tdg_conf_slow_rows (
    id      INTEGER PRIMARY KEY,
    payload TEXT
);
INSERT INTO tdg_conf_slow_rows VALUES (1, 'x');
CREATE VIEW tdg_conf_slow AS
    SELECT id, payload FROM tdg_conf_slow_rows
     WHERE (WITH RECURSIVE c (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000000)
            SELECT count(*) FROM c) > 0;
