-- As writer.sql in MySQL's spelling.
INSERT INTO tdg_conf_horizon (id, tablename, table_id, op) VALUES (4, 'beta', '20', 'i');
BEGIN;
INSERT INTO tdg_conf_horizon (id, tablename, table_id, op) VALUES (5, 'alpha', '12', 'i');
DO SLEEP(4);
ROLLBACK;
