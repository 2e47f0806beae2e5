-- As setup.sql in SQLite's spelling: a database file has no roles, so nothing to GRANT.
DROP TABLE IF EXISTS tdg_conf_quoted_keys;
CREATE TABLE tdg_conf_quoted_keys (k TEXT PRIMARY KEY NOT NULL, n INTEGER NOT NULL);
INSERT INTO tdg_conf_quoted_keys VALUES
    ('a,b', 1),
    ('"q"', 2),
    ('{x}', 3),
    ('{"a": 1}', 4),
    (' lead', 5),
    ('trail ', 6),
    ('a b', 7),
    ('back\slash', 8),
    ('\', 9),
    ('it''s', 10),
    ('NULL', 11),
    ('(1,2)', 12),
    ('[3]', 13),
    ('', 14);
