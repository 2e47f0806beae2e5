-- As setup.sql in SQLite's spelling; SQLite changes a column's type by rebuilding the table,
-- which expected.sqlite.json's alterations do.
DROP TABLE IF EXISTS tdg_conf_described;
DROP TABLE IF EXISTS tdg_conf_described_new;
CREATE TABLE tdg_conf_described (
    id     INTEGER PRIMARY KEY,
    note   TEXT,
    qty    INTEGER,
    amount NUMERIC(12,4)
);
