-- As setup.sql in SQLite's spelling: a database file has no roles, so nothing to GRANT.
-- Rows with NULLs in every nullable column, and a key that needs quoting as a literal.
DROP TABLE IF EXISTS tdg_conf_fetch;
CREATE TABLE tdg_conf_fetch (
    id    integer PRIMARY KEY,
    name  text,
    score numeric(6,2),
    born  date
);
INSERT INTO tdg_conf_fetch VALUES
    (1, 'one', 1.50, '2001-01-01'),
    (2, 'two', NULL, NULL),
    (3, NULL, -2.25, '2003-03-03'),
    (4, 'four', 0, NULL),
    (5, 'o''brien', 5.00, NULL);
