-- As setup.sql in SQLite's spelling.
DROP TABLE IF EXISTS tdg_conf_horizon;
CREATE TABLE tdg_conf_horizon (
    id         INTEGER PRIMARY KEY,
    tablename  TEXT NOT NULL,
    table_id   TEXT NOT NULL,
    op         TEXT NOT NULL,
    ts_created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now'))
);
INSERT INTO tdg_conf_horizon (id, tablename, table_id, op) VALUES
    (1, 'alpha', '10', 'i'), (2, 'alpha', '11', 'i'), (3, 'alpha', '10', 'u');
