-- Types the ABI has no kind of their own for, as the mysql plugin sends them: BIT(n) as the
-- integer it holds (BIT(1) as a boolean), YEAR as an integer, SET and ENUM as their text, INET6
-- as its text, FLOAT in its own shortest form (3.4028234e38 is stored as FLOAT's largest value,
-- 3.4028235e+38), TIME as a duration of up to 838 hours.
SET NAMES utf8mb4;
DROP TABLE IF EXISTS tdg_conf_dialect_types;
CREATE TABLE tdg_conf_dialect_types (
    id    integer PRIMARY KEY,
    bits  bit(8),
    flag  bit(1),
    yr    year,
    tags  set('a', 'b', 'c'),
    size  enum('small', 'Large'),
    addr  inet6,
    ratio float,
    span  time(6)
) DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_conf_dialect_types VALUES
    (1, b'10000001', b'1', 2024, 'c,a', 'Large', '2001:db8::ff00:42:8329', 3.4028234e38,
     '838:59:59'),
    (2, b'0', b'0', 1901, '', 'small', '::ffff:1.2.3.4', -2.25, '-00:00:00.000001'),
    (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
