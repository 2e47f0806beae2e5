-- As setup.sql in MySQL's spelling (a backslash is written doubled in a literal).
DROP TABLE IF EXISTS tdg_conf_quoted_keys;
CREATE TABLE tdg_conf_quoted_keys (k varchar(32) PRIMARY KEY, n integer NOT NULL)
    DEFAULT CHARSET = utf8mb4 COLLATE utf8mb4_bin;
INSERT INTO tdg_conf_quoted_keys VALUES
    ('a,b', 1),
    ('"q"', 2),
    ('{x}', 3),
    ('{"a": 1}', 4),
    (' lead', 5),
    ('trail ', 6),
    ('a b', 7),
    ('back\\slash', 8),
    ('\\', 9),
    ('it''s', 10),
    ('NULL', 11),
    ('(1,2)', 12),
    ('[3]', 13),
    ('', 14);
