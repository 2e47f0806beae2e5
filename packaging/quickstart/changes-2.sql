-- Changes between the two runs: an update, a new invoice and a delete. The second run, resumed
-- from the first run's state, sends exactly these three.
.bail on
BEGIN;
UPDATE customers SET name = 'Alan M. Turing' WHERE id = 2;
INSERT INTO invoices (id, customer_id, amount, issued, created_at) VALUES
    (105, 1, 19.99, '2024-06-01', '2024-06-01 12:00:00');
DELETE FROM invoices WHERE id = 102;
COMMIT;
