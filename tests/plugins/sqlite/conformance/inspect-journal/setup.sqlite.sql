-- As setup.sql in SQLite's spelling: one trigger per statement; a foreign key's cascade fires
-- the child's triggers in SQLite, so none bypasses them.
DROP TABLE IF EXISTS tdg_conf_ij_lines;
DROP TABLE IF EXISTS tdg_conf_ij_orders;
DROP TABLE IF EXISTS tdg_conf_ij_log;
CREATE TABLE tdg_conf_ij_log (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    tablename  TEXT NOT NULL,
    table_id   TEXT NOT NULL,
    op         TEXT NOT NULL,
    ts_created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now'))
);
CREATE TABLE tdg_conf_ij_orders (id INTEGER PRIMARY KEY);
CREATE TABLE tdg_conf_ij_lines (
    id       INTEGER PRIMARY KEY,
    order_id INTEGER REFERENCES tdg_conf_ij_orders (id) ON DELETE CASCADE
);
CREATE TRIGGER tdg_conf_ij_orders_i AFTER INSERT ON tdg_conf_ij_orders BEGIN
    INSERT INTO tdg_conf_ij_log (tablename, table_id, op) VALUES ('tdg_conf_ij_orders', NEW.id, 'i');
END;
CREATE TRIGGER tdg_conf_ij_orders_u AFTER UPDATE ON tdg_conf_ij_orders BEGIN
    INSERT INTO tdg_conf_ij_log (tablename, table_id, op) VALUES ('tdg_conf_ij_orders', NEW.id, 'u');
END;
CREATE TRIGGER tdg_conf_ij_orders_d AFTER DELETE ON tdg_conf_ij_orders BEGIN
    INSERT INTO tdg_conf_ij_log (tablename, table_id, op) VALUES ('tdg_conf_ij_orders', OLD.id, 'd');
END;
