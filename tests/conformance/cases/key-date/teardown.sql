DROP TABLE IF EXISTS tdg_conf_key_date;
