-- As setup.sql; ANSI_QUOTES lets the same double-quoted identifiers through.
SET NAMES utf8mb4;
SET SESSION sql_mode = CONCAT(@@SESSION.sql_mode, ',ANSI_QUOTES');
DROP TABLE IF EXISTS "Order";
CREATE TABLE "Order" (
    "id"         integer PRIMARY KEY,
    "select"     text,
    "MixedCase"  text,
    "from where" text
) DEFAULT CHARSET = utf8mb4;
INSERT INTO "Order" VALUES
    (1, 'a', 'x', 'with space'),
    (2, NULL, 'y', NULL),
    (3, 'it''s "quoted"', NULL, 'z');
