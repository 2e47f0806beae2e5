-- As setup.sql in SQLite's spelling.
DROP TABLE IF EXISTS tdg_conf_keyset;
CREATE TABLE tdg_conf_keyset (
    grp   INTEGER NOT NULL,
    label TEXT NOT NULL,
    n     INTEGER NOT NULL,
    PRIMARY KEY (grp, label)
);
INSERT INTO tdg_conf_keyset
    WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 20000)
    SELECT n % 61, 'o''' || printf('%05d', n * 7919 % 20011), n FROM seq;
-- estimate_rows reads the statistics ANALYZE keeps.
ANALYZE tdg_conf_keyset;
