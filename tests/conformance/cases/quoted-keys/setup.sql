-- Text keys that need quoting wherever a driver writes them into SQL or into a list: commas,
-- quotes, braces, brackets, blanks at either end, backslashes, the word NULL and the empty
-- string. A driver that pastes them unquoted into its statement, or into an array or list
-- literal, finds no row for them (the engine then writes false deletes).
DROP TABLE IF EXISTS tdg_conf_quoted_keys;
CREATE TABLE tdg_conf_quoted_keys (k text PRIMARY KEY, n integer NOT NULL);
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
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_quoted_keys TO PUBLIC;
