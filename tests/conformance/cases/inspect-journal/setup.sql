-- A log, a table journalled into it by a row trigger, and a child table whose foreign key
-- deletes its rows with the parent's (in PostgreSQL the cascade fires the child's triggers, so
-- no foreign key bypasses them). inspect_journal must report the trigger, what it writes into
-- tablename, and the log's id source.
DROP TABLE IF EXISTS tdg_conf_ij_lines, tdg_conf_ij_orders, tdg_conf_ij_log;
DROP FUNCTION IF EXISTS tdg_conf_ij_orders_journal();
CREATE TABLE tdg_conf_ij_log (
    id         bigserial   PRIMARY KEY,
    tablename  text        NOT NULL,
    table_id   text        NOT NULL,
    op         char(1)     NOT NULL,
    ts_created timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE tdg_conf_ij_orders (id integer PRIMARY KEY);
CREATE TABLE tdg_conf_ij_lines (
    id       integer PRIMARY KEY,
    order_id integer REFERENCES tdg_conf_ij_orders ON DELETE CASCADE
);
CREATE FUNCTION tdg_conf_ij_orders_journal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO tdg_conf_ij_log (tablename, table_id, op)
            VALUES ('tdg_conf_ij_orders', OLD.id::text, 'd');
    ELSE
        INSERT INTO tdg_conf_ij_log (tablename, table_id, op)
            VALUES ('tdg_conf_ij_orders', NEW.id::text, lower(left(TG_OP, 1)));
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER tdg_conf_ij_orders_journal AFTER INSERT OR UPDATE OR DELETE ON tdg_conf_ij_orders
    FOR EACH ROW EXECUTE FUNCTION tdg_conf_ij_orders_journal();
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_ij_log, tdg_conf_ij_orders, tdg_conf_ij_lines TO PUBLIC;
GRANT SELECT ON SEQUENCE tdg_conf_ij_log_id_seq TO PUBLIC;
