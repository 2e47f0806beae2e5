DROP TABLE IF EXISTS tdg_conf_exact;
