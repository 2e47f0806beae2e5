-- A diffgen log with explicit ids: two tables interleaved and a gap at 7, so page limits,
-- the after/up_to bounds and the table filter each have an exact expected answer.
DROP TABLE IF EXISTS tdg_conf_diffgen;
DROP TABLE IF EXISTS tdg_conf_diffgen_empty;
CREATE TABLE tdg_conf_diffgen (
    id         bigint      PRIMARY KEY,
    tablename  text        NOT NULL,
    table_id   text        NOT NULL,
    op         char(1)     NOT NULL,
    ts_created timestamptz NOT NULL
);
CREATE TABLE tdg_conf_diffgen_empty (LIKE tdg_conf_diffgen INCLUDING ALL);
INSERT INTO tdg_conf_diffgen VALUES
    (1, 'alpha', '10', 'i', '2024-01-02 03:04:05+00'),
    (2, 'beta',  '20', 'i', '2024-01-02 03:04:06+00'),
    (3, 'alpha', '11', 'i', '2024-01-02 03:04:07.5+00'),
    (4, 'alpha', '10', 'u', '2024-01-02 03:04:08+00'),
    (5, 'beta',  '20', 'd', '2024-01-02 03:04:09+00'),
    (6, 'alpha', '12', 'i', '2024-01-02 05:04:10+02'),
    (8, 'alpha', '11', 'd', '2024-01-02 03:04:12+00'),
    (9, 'beta',  '21', 'i', '2024-01-02 03:04:13.000001+00');
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_diffgen, tdg_conf_diffgen_empty TO PUBLIC;
