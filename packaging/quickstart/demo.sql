-- The quickstart's demo database: the journal of packaging/diffgen/sqlite.sql and two tables.
-- Run it from the repository root, which .read resolves the pattern's path against:
--     sqlite3 build/quickstart/demo.db < packaging/quickstart/demo.sql
-- Then journal both tables with the triggers the pattern's view diffgen_triggers writes for
-- them (run.sh does this), as for a table of your own:
--     sqlite3 build/quickstart/demo.db "SELECT trigger_sql FROM diffgen_triggers
--         WHERE table_name IN ('customers', 'invoices')" | sqlite3 build/quickstart/demo.db
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
