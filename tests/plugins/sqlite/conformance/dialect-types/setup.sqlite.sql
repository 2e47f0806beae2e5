-- Declared types SQLite itself gives no meaning beyond an affinity, as the sqlite plugin reads
-- them: BOOLEAN words, a DECIMAL(10,2) written with its scale whatever was stored, a DATETIME
-- with an offset moved to UTC, a column without a type as text, an integer type by affinity.
DROP TABLE IF EXISTS tdg_conf_dialect_types;
CREATE TABLE tdg_conf_dialect_types (
    id       INTEGER PRIMARY KEY,
    flag     BOOLEAN,
    price    DECIMAL(10,2),
    at       DATETIME,
    anything,
    big      UNSIGNED BIG INT
);
INSERT INTO tdg_conf_dialect_types VALUES
    (1, 'yes', 1.5, '2024-02-29 13:14:15+02:00', 'free text', 9223372036854775807),
    (2, 0, '10', '2024-02-29T23:30:00Z', 42, -1),
    (3, NULL, NULL, NULL, NULL, NULL);
