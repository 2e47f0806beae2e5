DROP VIEW IF EXISTS tdg_conf_lost;
DROP TABLE IF EXISTS tdg_conf_lost_rows;
