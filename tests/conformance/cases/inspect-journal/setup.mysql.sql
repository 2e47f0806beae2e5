-- As setup.sql in MySQL's spelling: one trigger per statement, and the child's ON DELETE
-- CASCADE runs inside InnoDB without firing the child's triggers, so it bypasses them.
DROP TABLE IF EXISTS tdg_conf_ij_lines, tdg_conf_ij_orders, tdg_conf_ij_log;
CREATE TABLE tdg_conf_ij_log (
    id         bigint      AUTO_INCREMENT PRIMARY KEY,
    tablename  varchar(64) NOT NULL,
    table_id   varchar(64) NOT NULL,
    op         char(1)     NOT NULL,
    ts_created timestamp(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE = InnoDB;
CREATE TABLE tdg_conf_ij_orders (id integer PRIMARY KEY) ENGINE = InnoDB;
CREATE TABLE tdg_conf_ij_lines (
    id       integer PRIMARY KEY,
    order_id integer,
    CONSTRAINT tdg_conf_ij_lines_order FOREIGN KEY (order_id) REFERENCES tdg_conf_ij_orders (id)
        ON DELETE CASCADE
) ENGINE = InnoDB;
CREATE TRIGGER tdg_conf_ij_orders_i AFTER INSERT ON tdg_conf_ij_orders FOR EACH ROW
    INSERT INTO tdg_conf_ij_log (tablename, table_id, op) VALUES ('tdg_conf_ij_orders', NEW.id, 'i');
CREATE TRIGGER tdg_conf_ij_orders_u AFTER UPDATE ON tdg_conf_ij_orders FOR EACH ROW
    INSERT INTO tdg_conf_ij_log (tablename, table_id, op) VALUES ('tdg_conf_ij_orders', NEW.id, 'u');
CREATE TRIGGER tdg_conf_ij_orders_d AFTER DELETE ON tdg_conf_ij_orders FOR EACH ROW
    INSERT INTO tdg_conf_ij_log (tablename, table_id, op) VALUES ('tdg_conf_ij_orders', OLD.id, 'd');
