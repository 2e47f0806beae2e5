-- As setup.sql in MySQL's spelling.
SET SESSION max_recursive_iterations = 100000;
DROP TABLE IF EXISTS tdg_conf_cancel;
CREATE TABLE tdg_conf_cancel (
    id      integer PRIMARY KEY,
    payload text
) DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_conf_cancel
    WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 20000)
    SELECT n, REPEAT('x', 40) FROM seq;
