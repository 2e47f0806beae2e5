-- 20,000 rows under a two-column key: row n is (n % 61, 'o''' || (n * 7919 % 20011) in five
-- digits, n), so each grp holds a run of about 330 rows whose labels come in another order
-- than n, and every label holds a quote (keyset_check.cpp says why).
DROP TABLE IF EXISTS tdg_conf_keyset;
CREATE TABLE tdg_conf_keyset (
    grp   integer,
    label text,
    n     integer NOT NULL,
    PRIMARY KEY (grp, label)
);
INSERT INTO tdg_conf_keyset
    SELECT n % 61, 'o''' || lpad((n * 7919 % 20011)::text, 5, '0'), n
      FROM generate_series(1, 20000) AS n;
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_keyset TO PUBLIC;
-- estimate_rows reads the planner's statistics.
ANALYZE tdg_conf_keyset;
