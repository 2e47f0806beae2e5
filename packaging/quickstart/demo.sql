-- The quickstart's demo database: two tables journalled into diffgen with the triggers of
-- packaging/diffgen/sqlite.sql, and their first rows. Run it from the repository root, which
-- .read resolves the pattern's path against:
--     sqlite3 build/quickstart/demo.db < packaging/quickstart/demo.sql
.bail on
.read packaging/diffgen/sqlite.sql

CREATE TABLE customers (
    id    INTEGER PRIMARY KEY,
    name  TEXT NOT NULL,
    email TEXT,
    vip   BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE TABLE invoices (
    id          INTEGER PRIMARY KEY,
    customer_id INTEGER REFERENCES customers (id),
    amount      NUMERIC(12,2) NOT NULL,
    issued      DATE NOT NULL,
    paid        BOOLEAN NOT NULL DEFAULT FALSE,
    created_at  TIMESTAMP NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now'))
);

CREATE TRIGGER customers_diffgen_i AFTER INSERT ON customers BEGIN
    INSERT INTO diffgen (tablename, table_id, op) VALUES ('customers', NEW.id, 'i');
END;
CREATE TRIGGER customers_diffgen_u AFTER UPDATE ON customers BEGIN
    INSERT INTO diffgen (tablename, table_id, op)
        SELECT 'customers', OLD.id, 'd' WHERE OLD.id IS NOT NEW.id;
    INSERT INTO diffgen (tablename, table_id, op) VALUES ('customers', NEW.id, 'u');
END;
CREATE TRIGGER customers_diffgen_d AFTER DELETE ON customers BEGIN
    INSERT INTO diffgen (tablename, table_id, op) VALUES ('customers', OLD.id, 'd');
END;

CREATE TRIGGER invoices_diffgen_i AFTER INSERT ON invoices BEGIN
    INSERT INTO diffgen (tablename, table_id, op) VALUES ('invoices', NEW.id, 'i');
END;
CREATE TRIGGER invoices_diffgen_u AFTER UPDATE ON invoices BEGIN
    INSERT INTO diffgen (tablename, table_id, op)
        SELECT 'invoices', OLD.id, 'd' WHERE OLD.id IS NOT NEW.id;
    INSERT INTO diffgen (tablename, table_id, op) VALUES ('invoices', NEW.id, 'u');
END;
CREATE TRIGGER invoices_diffgen_d AFTER DELETE ON invoices BEGIN
    INSERT INTO diffgen (tablename, table_id, op) VALUES ('invoices', OLD.id, 'd');
END;

BEGIN;
INSERT INTO customers (id, name, email, vip) VALUES
    (1, 'Ada Lovelace', 'ada@example.com', TRUE),
    (2, 'Alan Turing', 'alan@example.com', FALSE),
    (3, 'Grace Hopper', 'grace@example.com', FALSE);
INSERT INTO invoices (id, customer_id, amount, issued, paid, created_at) VALUES
    (101, 1, 1250.00, '2024-05-01', TRUE, '2024-05-01 09:30:00'),
    (102, 2, 80.50, '2024-05-03', FALSE, '2024-05-03 14:05:00'),
    (103, 3, 300, '2024-05-04', FALSE, '2024-05-04 08:00:00');
COMMIT;
