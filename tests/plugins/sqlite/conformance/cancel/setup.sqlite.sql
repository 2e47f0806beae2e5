-- As setup.sql in SQLite's spelling: a database file has no roles, so nothing to GRANT.
DROP TABLE IF EXISTS tdg_conf_cancel;
CREATE TABLE tdg_conf_cancel (
    id      integer PRIMARY KEY,
    payload text
);
INSERT INTO tdg_conf_cancel
    WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 20000)
    SELECT n, printf('%.40c', 'x') FROM seq;
