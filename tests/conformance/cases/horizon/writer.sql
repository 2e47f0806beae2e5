-- A writer beside the plugin. Its last commit is event 4, the check's signal that the writer
-- runs; its transaction then begins after that commit, takes an id in the range of the page
-- after 3, and is held open until writer_seconds (4) after the writer started, then rolled back.
INSERT INTO tdg_conf_horizon (id, tablename, table_id, op) VALUES (4, 'beta', '20', 'i');
BEGIN;
INSERT INTO tdg_conf_horizon (id, tablename, table_id, op) VALUES (5, 'alpha', '12', 'i');
SELECT pg_sleep(4);
ROLLBACK;
