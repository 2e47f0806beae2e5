-- As writer.sql in MySQL's spelling.
BEGIN;
INSERT INTO tdg_conf_diffgen VALUES (100, 'alpha', '99', 'i', CURRENT_TIMESTAMP(6));
DO SLEEP(8);
ROLLBACK;
