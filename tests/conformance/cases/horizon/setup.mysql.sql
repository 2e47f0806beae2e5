-- As setup.sql in MySQL's spelling.
DROP TABLE IF EXISTS tdg_conf_horizon;
CREATE TABLE tdg_conf_horizon (
    id         BIGINT       NOT NULL PRIMARY KEY,
    tablename  VARCHAR(128) NOT NULL,
    table_id   VARCHAR(255) NOT NULL,
    op         CHAR(1)      NOT NULL,
    ts_created TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_conf_horizon (id, tablename, table_id, op) VALUES
    (1, 'alpha', '10', 'i'), (2, 'alpha', '11', 'i'), (3, 'alpha', '10', 'u');
