-- As setup.sql in MySQL's spelling: SLEEP() runs for each row the statement looks at.
DROP VIEW IF EXISTS tdg_conf_lost;
DROP TABLE IF EXISTS tdg_conf_lost_rows;
CREATE TABLE tdg_conf_lost_rows (
    id      integer PRIMARY KEY,
    payload text
) DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_conf_lost_rows VALUES (1, 'x');
CREATE VIEW tdg_conf_lost AS SELECT id, payload FROM tdg_conf_lost_rows WHERE SLEEP(3) = 0;
