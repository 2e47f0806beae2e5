-- Enough rows that a scan or a fetch in batches of 100 is far from done after its first batch.
DROP TABLE IF EXISTS tdg_conf_cancel;
CREATE TABLE tdg_conf_cancel (
    id      integer PRIMARY KEY,
    payload text
);
INSERT INTO tdg_conf_cancel SELECT n, repeat('x', 40) FROM generate_series(1, 20000) AS n;
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_cancel TO PUBLIC;
