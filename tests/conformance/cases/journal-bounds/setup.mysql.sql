-- As setup.sql, the ids from AUTO_INCREMENT.
DROP TABLE IF EXISTS tdg_conf_journal, tdg_conf_journal_emptied, tdg_conf_journal_fresh;
CREATE TABLE tdg_conf_journal (
    id         BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tablename  VARCHAR(128) NOT NULL,
    table_id   VARCHAR(255) NOT NULL,
    op         CHAR(1)      NOT NULL,
    ts_created TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) DEFAULT CHARSET = utf8mb4;
CREATE TABLE tdg_conf_journal_emptied LIKE tdg_conf_journal;
CREATE TABLE tdg_conf_journal_fresh LIKE tdg_conf_journal;
INSERT INTO tdg_conf_journal (tablename, table_id, op) VALUES
    ('alpha', '1', 'i'), ('alpha', '2', 'i'), ('alpha', '3', 'i'), ('alpha', '4', 'i'),
    ('alpha', '5', 'i'), ('alpha', '6', 'i'), ('alpha', '7', 'i'), ('alpha', '8', 'i'),
    ('alpha', '9', 'i');
DELETE FROM tdg_conf_journal WHERE id <= 3;
INSERT INTO tdg_conf_journal_emptied (tablename, table_id, op) VALUES
    ('alpha', '1', 'i'), ('alpha', '2', 'i'), ('alpha', '3', 'i'), ('alpha', '4', 'i');
DELETE FROM tdg_conf_journal_emptied;
