-- As setup.sql in MySQL's spelling. TIMESTAMP is the instant (read in the session's UTC);
-- MySQL has no numeric without precision, so decimal(38,9) holds the nine decimals, and its
-- multipleOf must admit them.
SET NAMES utf8mb4;
SET time_zone = '+02:00';
DROP TABLE IF EXISTS tdg_conf_kinds;
CREATE TABLE tdg_conf_kinds (
    id      integer PRIMARY KEY,
    ratio   float,
    measure double,
    clock   time(6),
    instant timestamp(6) NULL,
    payload varbinary(16),
    exact   decimal(38,9)
) DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_conf_kinds VALUES
    (1, 0.1, 0.1, '13:14:15.5', '2024-02-29 15:14:15.123456', X'00ff10', 123.123456789),
    (2, -2.25, -1234567.125, '00:00:00', '2000-01-01 01:59:59', X'', 0.000000001),
    (3, NULL, NULL, NULL, NULL, NULL, NULL);
