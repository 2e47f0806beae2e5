-- As setup.sql in MySQL's spelling.
SET SESSION max_recursive_iterations = 100000;
DROP TABLE IF EXISTS tdg_conf_keyset;
CREATE TABLE tdg_conf_keyset (
    grp   integer,
    label varchar(16),
    n     integer NOT NULL,
    PRIMARY KEY (grp, label)
) DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_conf_keyset
    WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 20000)
    SELECT n % 61, CONCAT('o''', LPAD(n * 7919 % 20011, 5, '0')), n FROM seq;
-- estimate_rows reads the table's statistics.
ANALYZE TABLE tdg_conf_keyset;
