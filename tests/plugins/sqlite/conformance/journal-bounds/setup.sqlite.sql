-- As setup.sql, the ids from AUTOINCREMENT (sqlite_sequence).
DROP TABLE IF EXISTS tdg_conf_journal;
DROP TABLE IF EXISTS tdg_conf_journal_emptied;
DROP TABLE IF EXISTS tdg_conf_journal_fresh;
CREATE TABLE tdg_conf_journal (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    tablename  TEXT NOT NULL,
    table_id   TEXT NOT NULL,
    op         TEXT NOT NULL,
    ts_created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'))
);
CREATE TABLE tdg_conf_journal_emptied (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    tablename  TEXT NOT NULL,
    table_id   TEXT NOT NULL,
    op         TEXT NOT NULL,
    ts_created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'))
);
CREATE TABLE tdg_conf_journal_fresh (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    tablename  TEXT NOT NULL,
    table_id   TEXT NOT NULL,
    op         TEXT NOT NULL,
    ts_created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'))
);
WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 9)
INSERT INTO tdg_conf_journal (tablename, table_id, op) SELECT 'alpha', n, 'i' FROM g;
DELETE FROM tdg_conf_journal WHERE id <= 3;
WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 4)
INSERT INTO tdg_conf_journal_emptied (tablename, table_id, op) SELECT 'alpha', n, 'i' FROM g;
DELETE FROM tdg_conf_journal_emptied;
