-- A writer beside the plugin: it takes an id in the log and holds its transaction open, so the
-- ids it holds could still commit into a range the plugin has read; then it rolls back.
BEGIN;
INSERT INTO tdg_conf_diffgen VALUES (100, 'alpha', '99', 'i', now());
SELECT pg_sleep(8);
ROLLBACK;
