-- As setup.sql. TIMESTAMP(6) stores the instant; the session zone is UTC so the literals
-- below mean what they say.
SET time_zone = '+00:00';
DROP TABLE IF EXISTS tdg_conf_diffgen;
DROP TABLE IF EXISTS tdg_conf_diffgen_empty;
CREATE TABLE tdg_conf_diffgen (
    id         BIGINT       NOT NULL PRIMARY KEY,
    tablename  VARCHAR(128) NOT NULL,
    table_id   VARCHAR(255) NOT NULL,
    op         CHAR(1)      NOT NULL,
    ts_created TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    KEY tdg_conf_diffgen_tablename_id (tablename, id)
) DEFAULT CHARSET = utf8mb4;
CREATE TABLE tdg_conf_diffgen_empty LIKE tdg_conf_diffgen;
INSERT INTO tdg_conf_diffgen VALUES
    (1, 'alpha', '10', 'i', '2024-01-02 03:04:05'),
    (2, 'beta',  '20', 'i', '2024-01-02 03:04:06'),
    (3, 'alpha', '11', 'i', '2024-01-02 03:04:07.5'),
    (4, 'alpha', '10', 'u', '2024-01-02 03:04:08'),
    (5, 'beta',  '20', 'd', '2024-01-02 03:04:09'),
    (6, 'alpha', '12', 'i', '2024-01-02 03:04:10'),
    (8, 'alpha', '11', 'd', '2024-01-02 03:04:12'),
    (9, 'beta',  '21', 'i', '2024-01-02 03:04:13.000001');
