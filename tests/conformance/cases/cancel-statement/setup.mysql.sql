-- As setup.sql in MySQL's spelling: SLEEP() runs for each row the statement looks at.
DROP VIEW IF EXISTS tdg_conf_slow;
DROP TABLE IF EXISTS tdg_conf_slow_rows;
CREATE TABLE tdg_conf_slow_rows (
    id      integer PRIMARY KEY,
    payload text
) DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_conf_slow_rows VALUES (1, 'x');
CREATE VIEW tdg_conf_slow AS SELECT id, payload FROM tdg_conf_slow_rows WHERE SLEEP(5) = 0;
