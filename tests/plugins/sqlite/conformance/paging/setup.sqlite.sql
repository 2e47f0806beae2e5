-- As setup.sql in SQLite's spelling: no LIKE ... INCLUDING ALL, ts_created as ISO text, and
-- nothing to GRANT (a database file has no roles).
DROP TABLE IF EXISTS tdg_conf_diffgen;
DROP TABLE IF EXISTS tdg_conf_diffgen_empty;
CREATE TABLE tdg_conf_diffgen (
    id         INTEGER PRIMARY KEY,
    tablename  TEXT NOT NULL,
    table_id   TEXT NOT NULL,
    op         TEXT NOT NULL,
    ts_created TEXT NOT NULL
);
CREATE TABLE tdg_conf_diffgen_empty (
    id         INTEGER PRIMARY KEY,
    tablename  TEXT NOT NULL,
    table_id   TEXT NOT NULL,
    op         TEXT NOT NULL,
    ts_created TEXT NOT NULL
);
INSERT INTO tdg_conf_diffgen VALUES
    (1, 'alpha', '10', 'i', '2024-01-02 03:04:05+00'),
    (2, 'beta',  '20', 'i', '2024-01-02 03:04:06+00'),
    (3, 'alpha', '11', 'i', '2024-01-02 03:04:07.5+00'),
    (4, 'alpha', '10', 'u', '2024-01-02 03:04:08+00'),
    (5, 'beta',  '20', 'd', '2024-01-02 03:04:09+00'),
    (6, 'alpha', '12', 'i', '2024-01-02 05:04:10+02'),
    (8, 'alpha', '11', 'd', '2024-01-02 03:04:12+00'),
    (9, 'beta',  '21', 'i', '2024-01-02 03:04:13.000001+00');
