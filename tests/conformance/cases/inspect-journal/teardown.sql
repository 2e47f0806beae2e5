DROP TABLE IF EXISTS tdg_conf_ij_lines, tdg_conf_ij_orders, tdg_conf_ij_log;
DROP FUNCTION IF EXISTS tdg_conf_ij_orders_journal();
