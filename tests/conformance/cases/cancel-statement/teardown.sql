DROP VIEW IF EXISTS tdg_conf_slow;
DROP TABLE IF EXISTS tdg_conf_slow_rows;
