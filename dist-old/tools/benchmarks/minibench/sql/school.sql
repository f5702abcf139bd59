-- minibench: a small university. Rows after the hand-written ones are generated
-- deterministically (modular arithmetic), so the file stays small and builds are reproducible.
CREATE TABLE departments (
  dept_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  building TEXT,
  budget REAL,              -- NULL: not yet approved
  founded_year INTEGER
);
INSERT INTO departments VALUES
  (1, 'Computer Science', 'Turing Hall', 1250000.0, 1972),
  (2, 'Mathematics', 'Noether Hall', 830000.0, 1901),
  (3, 'Physics', 'Curie Hall', 990000.5, 1905),
  (4, 'History', 'Gibbon Hall', 410000.0, 1899),
  (5, 'Biology', 'Darwin Hall', 1020000.0, 1950),
  (6, 'Music', 'Curie Hall', NULL, 1988);

CREATE TABLE instructors (
  instructor_id INTEGER PRIMARY KEY,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  dept_id INTEGER REFERENCES departments (dept_id),
  title TEXT,               -- Professor | Associate Professor | Lecturer
  hire_date TEXT,           -- YYYY-MM-DD
  salary REAL,
  email TEXT                -- NULL when unknown
);
INSERT INTO instructors VALUES
  (1, 'Grace', 'Hopper', 1, 'Professor', '2004-08-15', 182000.0, 'ghopper@uni.edu'),
  (2, 'Alan', 'Kay', 1, 'Associate Professor', '2012-01-09', 141000.0, 'akay@uni.edu'),
  (3, 'Barbara', 'Liskov', 1, 'Professor', '1999-09-01', 190500.0, NULL),
  (4, 'Edsger', 'Dijkstra', 1, 'Lecturer', '2019-08-20', 88000.0, 'edijkstra@uni.edu'),
  (5, 'Emmy', 'Noether', 2, 'Professor', '2001-09-01', 175000.0, 'enoether@uni.edu'),
  (6, 'Srinivasa', 'Ramanujan', 2, 'Lecturer', '2021-01-11', 79000.0, NULL),
  (7, 'Sofia', 'Kovalevskaya', 2, 'Associate Professor', '2010-08-30', 132000.0, 'skoval@uni.edu'),
  (8, 'Marie', 'Curie', 3, 'Professor', '1998-02-01', 188000.0, 'mcurie@uni.edu'),
  (9, 'Richard', 'Feynman', 3, 'Associate Professor', '2008-09-15', 141000.0, 'rfeynman@uni.edu'),
  (10, 'Lise', 'Meitner', 3, 'Lecturer', '2020-09-01', 91000.0, 'lmeitner@uni.edu'),
  (11, 'Edward', 'Gibbon', 4, 'Professor', '1995-09-01', 150000.0, NULL),
  (12, 'Mary', 'Beard', 4, 'Associate Professor', '2011-01-10', 118000.0, 'mbeard@uni.edu'),
  (13, 'Charles', 'Darwin', 5, 'Professor', '2003-03-03', 171000.0, 'cdarwin@uni.edu'),
  (14, 'Rosalind', 'Franklin', 5, 'Associate Professor', '2014-08-25', 136500.0, 'rfranklin@uni.edu'),
  (15, 'Gregor', 'Mendel', 5, 'Lecturer', '2022-01-10', 76000.0, NULL),
  (16, 'Clara', 'Schumann', 6, 'Professor', '2006-09-01', 128000.0, 'cschumann@uni.edu'),
  (17, 'Nadia', 'Boulanger', 6, 'Lecturer', '2018-09-01', 72000.0, 'nboulanger@uni.edu'),
  (18, 'Alan', 'Turing', NULL, 'Lecturer', '2023-09-01', 85000.0, NULL);

CREATE TABLE courses (
  course_id INTEGER PRIMARY KEY,
  code TEXT NOT NULL,       -- e.g. CS101
  title TEXT NOT NULL,
  dept_id INTEGER REFERENCES departments (dept_id),
  credits INTEGER,
  level TEXT                -- '100' .. '400', stored as text
);
INSERT INTO courses VALUES
  (1, 'CS101', 'Introduction to Programming', 1, 4, '100'),
  (2, 'CS201', 'Data Structures', 1, 4, '200'),
  (3, 'CS305', 'Databases', 1, 3, '300'),
  (4, 'CS340', 'Operating Systems', 1, 3, '300'),
  (5, 'CS480', 'Machine Learning', 1, 3, '400'),
  (6, 'MA101', 'Calculus I', 2, 4, '100'),
  (7, 'MA102', 'Calculus II', 2, 4, '100'),
  (8, 'MA210', 'Linear Algebra', 2, 3, '200'),
  (9, 'MA330', 'Probability', 2, 3, '300'),
  (10, 'PH101', 'Mechanics', 3, 4, '100'),
  (11, 'PH202', 'Electromagnetism', 3, 4, '200'),
  (12, 'PH310', 'Quantum Physics', 3, 3, '300'),
  (13, 'HI110', 'Ancient Rome', 4, 3, '100'),
  (14, 'HI220', 'Medieval Europe', 4, 3, '200'),
  (15, 'HI330', 'Modern History', 4, 3, '300'),
  (16, 'BI101', 'Cell Biology', 5, 4, '100'),
  (17, 'BI210', 'Genetics', 5, 3, '200'),
  (18, 'BI320', 'Ecology', 5, 3, '300'),
  (19, 'MU100', 'Music Theory', 6, 2, '100'),
  (20, 'MU250', 'Composition', 6, 2, '200'),
  (21, 'CS499', 'Senior Project', 1, 6, '400'),
  (22, 'MA499', 'Senior Thesis', 2, 6, '400');

CREATE TABLE students (
  student_id INTEGER PRIMARY KEY,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  birth_date TEXT,          -- YYYY-MM-DD
  enrollment_year INTEGER,
  major_dept_id INTEGER REFERENCES departments (dept_id),  -- NULL: undeclared
  gpa REAL,                 -- NULL: no graded term yet
  city TEXT
);
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 120),
  fn(i, v) AS (VALUES (0, 'Ana'), (1, 'Ben'), (2, 'Chloe'), (3, 'David'), (4, 'Elena'), (5, 'Farid'),
    (6, 'Grace'), (7, 'Hugo'), (8, 'Ines'), (9, 'Jamal'), (10, 'Kenji'), (11, 'Lena'), (12, 'Marco'),
    (13, 'Nora'), (14, 'Omar'), (15, 'Priya'), (16, 'Quinn'), (17, 'Rosa'), (18, 'Sam'), (19, 'Tara')),
  ln(i, v) AS (VALUES (0, 'Garcia'), (1, 'Smith'), (2, 'Nguyen'), (3, 'Kowalski'), (4, 'Okafor'),
    (5, 'Rossi'), (6, 'Tanaka'), (7, 'Muller'), (8, 'Silva'), (9, 'Haddad'), (10, 'Brown'),
    (11, 'Ivanova'), (12, 'Dubois'), (13, 'Khan'), (14, 'Larsen')),
  ct(i, v) AS (VALUES (0, 'Boston'), (1, 'Chicago'), (2, 'Denver'), (3, 'Austin'), (4, 'Seattle'), (5, 'Portland'))
INSERT INTO students
SELECT n, fn.v, ln.v,
  date('1998-01-01', '+' || ((n * 97) % 2200) || ' days'),
  2019 + (n % 5),
  CASE WHEN n % 11 = 0 THEN NULL ELSE 1 + (n * 7) % 6 END,
  CASE WHEN n % 5 = 4 AND n % 2 = 0 THEN NULL ELSE round(2.0 + ((n * 37) % 200) / 100.0, 2) END,
  ct.v
FROM seq JOIN fn ON fn.i = n % 20 JOIN ln ON ln.i = (n * 7) % 15 JOIN ct ON ct.i = (n * 5) % 6;

CREATE TABLE enrollments (
  enrollment_id INTEGER PRIMARY KEY,
  student_id INTEGER NOT NULL REFERENCES students (student_id),
  course_id INTEGER NOT NULL REFERENCES courses (course_id),
  term TEXT NOT NULL,       -- e.g. 2023-Fall
  grade TEXT,               -- A..F; NULL while in progress
  score TEXT                -- exam score as text, e.g. '87.5'
);
WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 359),
  e(n, student_id, course_id, term) AS (
    SELECT n, 1 + n / 3, 1 + ((n / 3) * 5 + (n % 3) * 7) % 22,
      (2019 + ((n / 3) % 5) + (n % 3) / 2) || CASE WHEN n % 2 = 0 THEN '-Fall' ELSE '-Spring' END
    FROM seq),
  s(n, score) AS (SELECT n, min(100, 35 + (n * 53 + (n / 7) * 17) % 66 + CASE WHEN n % 4 = 0 THEN 0.5 ELSE 0 END) FROM e)
INSERT INTO enrollments
SELECT e.n + 1, e.student_id, e.course_id, e.term,
  CASE WHEN e.term = '2024-Fall' THEN NULL
       WHEN s.score >= 90 THEN 'A' WHEN s.score >= 80 THEN 'B' WHEN s.score >= 70 THEN 'C'
       WHEN s.score >= 60 THEN 'D' ELSE 'F' END,
  CASE WHEN e.term = '2024-Fall' THEN NULL ELSE CAST(s.score AS TEXT) END
FROM e JOIN s ON s.n = e.n;

CREATE TABLE teaching (
  course_id INTEGER NOT NULL REFERENCES courses (course_id),
  instructor_id INTEGER NOT NULL REFERENCES instructors (instructor_id),
  term TEXT NOT NULL,
  PRIMARY KEY (course_id, instructor_id, term)
);
WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 43)
INSERT INTO teaching
SELECT course_id, instructor_id, term FROM (
  SELECT c.course_id, i.instructor_id,
    (2021 + seq.n % 3) || CASE WHEN seq.n % 2 = 0 THEN '-Fall' ELSE '-Spring' END AS term,
    ROW_NUMBER() OVER (PARTITION BY seq.n ORDER BY (i.instructor_id * 31 + seq.n * 17) % 13, i.instructor_id) AS pick
  FROM seq JOIN courses c ON c.course_id = 1 + seq.n % 22 JOIN instructors i ON i.dept_id = c.dept_id)
WHERE pick = 1;
