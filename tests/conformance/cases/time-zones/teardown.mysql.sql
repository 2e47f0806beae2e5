SET GLOBAL time_zone = DEFAULT;
DROP TABLE IF EXISTS tdg_conf_zone;
