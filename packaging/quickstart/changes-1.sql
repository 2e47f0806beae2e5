-- The first rows, and changes made before the tap's first run: an update, a new customer with
-- an invoice, an invoice paid and one deleted. The first run sends every row once, as it is
-- now, and the deleted invoice as a tombstone.
.bail on
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
BEGIN;
UPDATE customers SET email = 'grace.hopper@example.com', vip = TRUE WHERE id = 3;
INSERT INTO customers (id, name, email) VALUES (4, 'Edsger Dijkstra', 'edsger@example.com');
INSERT INTO invoices (id, customer_id, amount, issued, created_at) VALUES
    (104, 4, 42.00, '2024-05-06', '2024-05-06 10:00:00');
UPDATE invoices SET paid = TRUE WHERE id = 102;
DELETE FROM invoices WHERE id = 103;
COMMIT;
