DROP TABLE IF EXISTS tdg_conf_ij_lines;
DROP TABLE IF EXISTS tdg_conf_ij_orders;
DROP TABLE IF EXISTS tdg_conf_ij_log;
