-- minibench: a small online shop. Generated rows use modular arithmetic (deterministic).
CREATE TABLE customers (
  customer_id INTEGER PRIMARY KEY,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT,
  city TEXT,
  country TEXT,
  zip_code TEXT,            -- text: keeps leading zeros
  signup_date TEXT,         -- YYYY-MM-DD
  segment TEXT              -- Consumer | Corporate | Home Office; NULL: unknown
);
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 60),
  fn(i, v) AS (VALUES (0, 'Olivia'), (1, 'Liam'), (2, 'Emma'), (3, 'Noah'), (4, 'Ava'), (5, 'Lucas'),
    (6, 'Mia'), (7, 'Ethan'), (8, 'Zoe'), (9, 'Leo'), (10, 'Aisha'), (11, 'Mateo')),
  ln(i, v) AS (VALUES (0, 'Johnson'), (1, 'Lee'), (2, 'Martin'), (3, 'Walker'), (4, 'Young'),
    (5, 'Lopez'), (6, 'Hill'), (7, 'Scott')),
  pl(i, city, country, zip) AS (VALUES (0, 'Boston', 'USA', '02134'), (1, 'Austin', 'USA', '73301'),
    (2, 'Toronto', 'Canada', 'M5V 2T6'), (3, 'Lyon', 'France', '69001'), (4, 'Berlin', 'Germany', '10115'),
    (5, 'Boston', 'USA', '02115'), (6, 'Madrid', 'Spain', '28001'), (7, 'Vancouver', 'Canada', 'V6B 1A1'),
    (8, 'Paris', 'France', '75002'), (9, 'Seattle', 'USA', '98101'))
INSERT INTO customers
SELECT n, fn.v, ln.v,
  CASE WHEN n % 13 = 0 THEN NULL ELSE lower(fn.v) || '.' || lower(ln.v) || n || '@mail.com' END,
  pl.city, pl.country, pl.zip,
  date('2020-01-05', '+' || ((n * 41) % 1400) || ' days'),
  CASE n % 7 WHEN 0 THEN NULL WHEN 1 THEN 'Corporate' WHEN 4 THEN 'Home Office' ELSE 'Consumer' END
FROM seq JOIN fn ON fn.i = n % 12 JOIN ln ON ln.i = (n * 3) % 8 JOIN pl ON pl.i = (n * 7) % 10;

CREATE TABLE products (
  product_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  category TEXT,
  unit_price REAL,
  stock INTEGER,
  discontinued INTEGER      -- 1: no longer sold, 0: on sale
);
INSERT INTO products VALUES
  (1, 'Trail Running Shoes', 'Footwear', 119.99, 34, 0),
  (2, 'Leather Boots', 'Footwear', 189.0, 12, 0),
  (3, 'Canvas Sneakers', 'Footwear', 59.5, 80, 0),
  (4, 'Wool Socks (3 pack)', 'Footwear', 18.0, 200, 0),
  (5, 'Rain Jacket', 'Clothing', 149.0, 25, 0),
  (6, 'Down Vest', 'Clothing', 129.0, 0, 1),
  (7, 'Merino T-Shirt', 'Clothing', 45.0, 140, 0),
  (8, 'Hiking Pants', 'Clothing', 79.9, 60, 0),
  (9, 'Fleece Hoodie', 'Clothing', 69.0, 45, 0),
  (10, 'Baseball Cap', 'Accessories', 22.0, 150, 0),
  (11, 'Leather Belt', 'Accessories', 39.0, 70, 0),
  (12, 'Sunglasses', 'Accessories', 89.0, 30, 0),
  (13, 'Canvas Tote', 'Accessories', 18.0, 95, 0),
  (14, 'Insulated Bottle', 'Outdoor', 29.95, 120, 0),
  (15, 'Two-Person Tent', 'Outdoor', 249.0, 8, 0),
  (16, 'Sleeping Bag', 'Outdoor', 159.0, 14, 0),
  (17, 'Camp Stove', 'Outdoor', 64.0, 0, 0),
  (18, 'Headlamp', 'Outdoor', 34.5, 55, 0),
  (19, 'Trekking Poles', 'Outdoor', 89.0, 22, 1),
  (20, 'Daypack 20L', 'Bags', 99.0, 40, 0),
  (21, 'Travel Duffel', 'Bags', 139.0, 17, 0),
  (22, 'Laptop Backpack', 'Bags', 119.99, 33, 0),
  (23, 'Gift Card', NULL, 50.0, NULL, 0);

CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (customer_id),
  order_date TEXT NOT NULL, -- YYYY-MM-DD HH:MM:SS
  status TEXT NOT NULL,     -- pending | shipped | delivered | cancelled
  ship_city TEXT            -- NULL: same as the customer's city
);
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 150)
INSERT INTO orders
SELECT n, 1 + (n * 17) % 57,
  datetime('2022-01-03 09:00:00', '+' || ((n * 29) % 900) || ' days', '+' || ((n * 7) % 600) || ' minutes'),
  CASE WHEN n % 10 = 0 THEN 'cancelled' WHEN n % 10 = 3 THEN 'pending' WHEN n % 10 IN (5, 7) THEN 'shipped' ELSE 'delivered' END,
  CASE WHEN n % 6 = 0 THEN 'Chicago' WHEN n % 9 = 0 THEN 'Boston' ELSE NULL END
FROM seq;

CREATE TABLE order_items (
  order_id INTEGER NOT NULL REFERENCES orders (order_id),
  product_id INTEGER NOT NULL REFERENCES products (product_id),
  quantity INTEGER NOT NULL,
  unit_price REAL NOT NULL, -- price paid per unit, before discount
  discount REAL NOT NULL,   -- fraction, e.g. 0.1 = 10 % off
  PRIMARY KEY (order_id, product_id)
);
WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 299),
  i(n, order_id, product_id) AS (SELECT n, 1 + n / 2, 1 + ((n / 2) * 7 + (n % 2) * 11) % 22 FROM seq)
INSERT INTO order_items
SELECT i.order_id, i.product_id, 1 + (i.n * 13) % 4, p.unit_price,
  CASE WHEN i.n % 9 = 0 THEN 0.1 WHEN i.n % 14 = 0 THEN 0.25 ELSE 0.0 END
FROM i JOIN products p ON p.product_id = i.product_id;

CREATE TABLE payments (
  payment_id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders (order_id),
  amount REAL NOT NULL,
  method TEXT NOT NULL,     -- card | paypal | bank_transfer
  paid_at TEXT              -- YYYY-MM-DD HH:MM:SS
);
INSERT INTO payments (order_id, amount, method, paid_at)
SELECT o.order_id,
  round(SUM(oi.quantity * oi.unit_price * (1 - oi.discount)), 2),
  CASE o.order_id % 5 WHEN 0 THEN 'paypal' WHEN 3 THEN 'bank_transfer' ELSE 'card' END,
  datetime(o.order_date, '+' || (o.order_id % 3) || ' hours')
FROM orders o JOIN order_items oi ON oi.order_id = o.order_id
WHERE o.status <> 'pending'
GROUP BY o.order_id ORDER BY o.order_id;

CREATE TABLE reviews (
  review_id INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES products (product_id),
  customer_id INTEGER NOT NULL REFERENCES customers (customer_id),
  rating INTEGER NOT NULL,  -- 1..5 stars
  review_date TEXT,         -- YYYY-MM-DD
  title TEXT                -- NULL: rating without text
);
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 90),
  tt(i, v) AS (VALUES (0, 'Great value'), (1, 'Does the job'), (2, 'Not as described'), (3, 'Love it'),
    (4, 'Too small'), (5, 'Excellent quality'))
INSERT INTO reviews
SELECT n, 1 + (n * 5) % 22, 1 + (n * 11) % 60,
  CASE WHEN n % 8 = 0 THEN 1 WHEN n % 5 = 0 THEN 2 WHEN n % 3 = 0 THEN 3 WHEN n % 2 = 0 THEN 4 ELSE 5 END,
  date('2022-02-01', '+' || ((n * 23) % 950) || ' days'),
  CASE WHEN n % 4 = 0 THEN NULL ELSE tt.v END
FROM seq JOIN tt ON tt.i = n % 6;
