-- minibench: artists, albums and concerts. Generated rows use modular arithmetic (deterministic).
CREATE TABLE artists (
  artist_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  country TEXT,
  genre TEXT,
  formed_year INTEGER       -- NULL: unknown
);
INSERT INTO artists VALUES
  (1, 'The Lanterns', 'UK', 'Rock', 2004),
  (2, 'Marisol Vega', 'Mexico', 'Pop', 2012),
  (3, 'Northbound', 'Canada', 'Folk', 2009),
  (4, 'Kora Collective', 'Senegal', 'World', 2015),
  (5, 'Static Bloom', 'USA', 'Electronic', 2017),
  (6, 'Iron Meridian', 'Sweden', 'Metal', 1998),
  (7, 'June & the Tides', 'Australia', 'Indie', 2013),
  (8, 'Blue Harbor Trio', 'USA', 'Jazz', 1991),
  (9, 'Amaru', 'Peru', 'Folk', NULL),
  (10, 'Neon Saints', 'UK', 'Electronic', 2019),
  (11, 'Velvet Orchard', 'USA', 'Rock', 2001),
  (12, 'Hana Mori', 'Japan', 'Pop', 2016);

CREATE TABLE venues (
  venue_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  city TEXT,
  country TEXT,
  capacity INTEGER
);
INSERT INTO venues VALUES
  (1, 'Roundhouse', 'London', 'UK', 3300),
  (2, 'Paradiso', 'Amsterdam', 'Netherlands', 1500),
  (3, 'The Fillmore', 'San Francisco', 'USA', 1315),
  (4, 'Massey Hall', 'Toronto', 'Canada', 2752),
  (5, 'Olympia', 'Paris', 'France', 2000),
  (6, 'Red Rocks', 'Morrison', 'USA', 9525),
  (7, 'Zepp Haneda', 'Tokyo', 'Japan', 2925),
  (8, 'Metro', 'Chicago', 'USA', 1100),
  (9, 'Palau de la Musica', 'Barcelona', 'Spain', 2146);

CREATE TABLE albums (
  album_id INTEGER PRIMARY KEY,
  artist_id INTEGER NOT NULL REFERENCES artists (artist_id),
  title TEXT NOT NULL,
  release_year TEXT,        -- year as text, e.g. '2016'
  label TEXT,               -- NULL: self-released
  copies_sold INTEGER
);
INSERT INTO albums VALUES
  (1, 1, 'Paper Skies', '2006', 'Harbor Records', 420000),
  (2, 1, 'Night Ferry', '2010', 'Harbor Records', 310000),
  (3, 1, 'Lanterns Live', '2015', NULL, 95000),
  (4, 2, 'Sol y Sombra', '2014', 'Luz Music', 880000),
  (5, 2, 'Marea', '2019', 'Luz Music', 1250000),
  (6, 3, 'Timber Line', '2011', NULL, 60000),
  (7, 3, 'Cold Rivers', '2016', 'Maple Sound', 140000),
  (8, 4, 'Saraba', '2018', 'Atlas World', 75000),
  (9, 5, 'Overclock', '2018', 'Pulse', 210000),
  (10, 5, 'Afterglow', '2021', 'Pulse', 390000),
  (11, 6, 'Forged in Frost', '1999', 'Nordic Steel', 150000),
  (12, 6, 'Meridian', '2003', 'Nordic Steel', 230000),
  (13, 6, 'Iron Sea', '2012', 'Nordic Steel', 230000),
  (14, 7, 'Saltwater', '2014', NULL, 45000),
  (15, 7, 'Low Tide', '2020', 'Coral', 120000),
  (16, 8, 'Harbor Lights', '1993', 'Bluewave', 38000),
  (17, 8, 'Late Set', '2001', 'Bluewave', 52000),
  (18, 9, 'Andes', '2013', NULL, 18000),
  (19, 10, 'Glow', '2020', 'Pulse', 310000),
  (20, 11, 'Orchard Road', '2003', 'Harbor Records', 560000),
  (21, 11, 'Velvet', '2008', 'Harbor Records', 610000),
  (22, 12, 'Sakura Drive', '2017', 'Tokyo Pop', 700000),
  (23, 12, 'Midnight Train', '2022', 'Tokyo Pop', 940000);

CREATE TABLE songs (
  song_id INTEGER PRIMARY KEY,
  album_id INTEGER NOT NULL REFERENCES albums (album_id),
  title TEXT NOT NULL,
  track_number INTEGER,
  duration_seconds INTEGER,
  explicit INTEGER          -- 1: explicit lyrics
);
WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 137),
  a(i, v) AS (VALUES (0, 'Golden'), (1, 'Silent'), (2, 'Broken'), (3, 'Electric'), (4, 'Wild'),
    (5, 'Distant'), (6, 'Burning'), (7, 'Paper'), (8, 'Midnight'), (9, 'Blue'), (10, 'Hollow')),
  b(i, v) AS (VALUES (0, 'Heart'), (1, 'River'), (2, 'Highway'), (3, 'Dreams'), (4, 'Light'),
    (5, 'Garden'), (6, 'Signal'), (7, 'Summer'), (8, 'Ghosts'), (9, 'Rain'), (10, 'City'), (11, 'Echo'), (12, 'Love'))
INSERT INTO songs
SELECT n + 1, 1 + n / 6, a.v || ' ' || b.v, 1 + n % 6,
  150 + (n * 37) % 240,
  CASE WHEN n % 17 = 0 THEN 1 ELSE 0 END
FROM seq JOIN a ON a.i = n % 11 JOIN b ON b.i = (n * 5) % 13;

CREATE TABLE concerts (
  concert_id INTEGER PRIMARY KEY,
  artist_id INTEGER NOT NULL REFERENCES artists (artist_id),
  venue_id INTEGER NOT NULL REFERENCES venues (venue_id),
  concert_date TEXT NOT NULL, -- YYYY-MM-DD
  ticket_price REAL,
  attendance INTEGER        -- NULL: not reported
);
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 80)
INSERT INTO concerts
SELECT n, 1 + (n * 7) % 11, 1 + (n * 5) % 9,
  date('2021-03-06', '+' || ((n * 19) % 1100) || ' days'),
  round(35 + (n * 13) % 90 + CASE WHEN n % 3 = 0 THEN 0.5 ELSE 0 END, 2),
  CASE WHEN n % 12 = 0 THEN NULL ELSE 600 + (n * 311) % 2700 END
FROM seq;
-- Attendance cannot exceed the venue's capacity.
UPDATE concerts SET attendance = (SELECT capacity FROM venues v WHERE v.venue_id = concerts.venue_id)
WHERE attendance > (SELECT capacity FROM venues v WHERE v.venue_id = concerts.venue_id);

CREATE TABLE setlists (
  concert_id INTEGER NOT NULL REFERENCES concerts (concert_id),
  song_id INTEGER NOT NULL REFERENCES songs (song_id),
  position INTEGER NOT NULL,
  PRIMARY KEY (concert_id, position)
);
INSERT INTO setlists
SELECT concert_id, song_id, position FROM (
  SELECT c.concert_id, s.song_id,
    ROW_NUMBER() OVER (PARTITION BY c.concert_id ORDER BY (s.song_id * 7 + c.concert_id * 3) % 23, s.song_id) AS position
  FROM concerts c JOIN albums al ON al.artist_id = c.artist_id JOIN songs s ON s.album_id = al.album_id)
WHERE position <= 3;
