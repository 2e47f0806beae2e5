-- As setup.sql in SQLite's spelling: a database file has no roles, so nothing to GRANT.
-- A table and columns whose names only work quoted: mixed case, reserved words, a space.
DROP TABLE IF EXISTS "Order";
CREATE TABLE "Order" (
    "id"         integer PRIMARY KEY,
    "select"     text,
    "MixedCase"  text,
    "from where" text
);
INSERT INTO "Order" VALUES
    (1, 'a', 'x', 'with space'),
    (2, NULL, 'y', NULL),
    (3, 'it''s "quoted"', NULL, 'z');
