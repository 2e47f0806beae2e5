-- Changes made before the tap's first run: an update, a new customer with an invoice, an
-- invoice paid and one deleted. The first run sends every row once, as it is now, and the
-- deleted invoice as a tombstone.
.bail on
BEGIN;
UPDATE customers SET email = 'grace.hopper@example.com', vip = TRUE WHERE id = 3;
INSERT INTO customers (id, name, email) VALUES (4, 'Edsger Dijkstra', 'edsger@example.com');
INSERT INTO invoices (id, customer_id, amount, issued, created_at) VALUES
    (104, 4, 42.00, '2024-05-06', '2024-05-06 10:00:00');
UPDATE invoices SET paid = TRUE WHERE id = 102;
DELETE FROM invoices WHERE id = 103;
COMMIT;
