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
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON "Order" TO PUBLIC;
