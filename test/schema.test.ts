import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor } from "../tools/sqlite/executor.ts";
import {
  type DbSchema,
  decodeText,
  parseCsv,
  readSchema,
  renderSchema,
  type TableSchema,
  tokens,
} from "../tools/schema.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";

const executor = createExecutor({ size: 2 });
let dir: string;
let birdDb: string;
let spiderDb: string;

const HEADER = "original_column_name,column_name,column_description,data_format,value_description";

beforeAll(() => {
  dir = makeTempDir();
  birdDb = makeDb(
    dir,
    "california_schools/california_schools.sqlite",
    `CREATE TABLE schools (CDSCode TEXT NOT NULL PRIMARY KEY, County TEXT, "School Name" TEXT, Blob BLOB);
     CREATE TABLE frpm (
       CDSCode TEXT,
       "Academic Year" TEXT,
       "Free Meal Count (K-12)" REAL,
       FOREIGN KEY (CDSCode) REFERENCES schools (CDSCode)
     );
     INSERT INTO schools VALUES ('01100170109835', 'Alameda', 'FAME Public Charter', x'00'),
                                ('01100170112607', 'Alameda', 'Envision Academy', x'01'),
                                ('01316170131763', 'Fresno', NULL, NULL),
                                ('01316170131764', 'Kern', '', NULL);
     INSERT INTO frpm VALUES ('01100170109835', '2014-2015', 1.5), ('01100170112607', '2014-2015', 9);`,
  );
  const descriptions = path.join(dir, "california_schools", "database_description");
  mkdirSync(descriptions);
  // BOM, quoted commas and newlines, CRLF, trailing blank lines; file name case differs from the table.
  writeFileSync(
    path.join(descriptions, "Schools.csv"),
    `\uFEFF${HEADER}\r\nCDSCode,,County-District-School code,text,\r\nCounty,County Name,"the county, in California",text,"Alameda, Fresno,\r\nKern ""and"" more"\r\n\r\n\r\n`,
  );
  // latin-1 bytes (0xE9 = é), not valid UTF-8.
  writeFileSync(
    path.join(descriptions, "frpm.CSV"),
    Buffer.concat([
      Buffer.from(`${HEADER}\n"Free Meal Count (K-12)",,nombre de repas gratuits `, "latin1"),
      Buffer.from([0xe9]),
      Buffer.from(`,real,\n`, "latin1"),
    ]),
  );

  spiderDb = makeDb(
    dir,
    "spider/concert.sqlite",
    `CREATE TABLE "Order Items" ("order" INTEGER, "it's" TEXT, "select" TEXT, PRIMARY KEY ("order", "it's"));
     CREATE TABLE stadium (Stadium_ID INT PRIMARY KEY, Name TEXT);
     CREATE TABLE concert (concert_ID INT, Stadium_ID INT REFERENCES STADIUM, note TEXT,
                           FOREIGN KEY (concert_ID, note) REFERENCES "Order Items" ("order", "it's"));
     INSERT INTO "Order Items" VALUES (1, 'a', 'x'), (2, 'b', 'y');
     INSERT INTO stadium VALUES (1, 'Wembley'), (2, 'Anfield');`,
  );
});

afterAll(async () => {
  await executor.close();
  removeTempDir(dir);
});

const table = (schema: DbSchema, name: string): TableSchema => {
  const t = schema.tables.find((x) => x.name === name);
  if (!t) throw new Error(`no table ${name}`);
  return t;
};

describe("readSchema", () => {
  it("reads tables, keys and samples (BIRD layout with descriptions)", async () => {
    const schema = await readSchema(birdDb, { executor });
    expect(schema.tables.map((t) => t.name)).toEqual(["schools", "frpm"]);
    const schools = table(schema, "schools");
    expect(schools.primaryKey).toEqual(["CDSCode"]);
    expect(schools.columns.map((c) => [c.name, c.type, c.primaryKey, c.notNull])).toEqual([
      ["CDSCode", "TEXT", true, true],
      ["County", "TEXT", false, false],
      ["School Name", "TEXT", false, false],
      ["Blob", "BLOB", false, false],
    ]);
    expect(schools.columns[1]!.samples).toEqual(["Alameda", "Fresno", "Kern"]);
    // NULL and '' are not samples; blobs are left out.
    expect(schools.columns[2]!.samples).toEqual(["FAME Public Charter", "Envision Academy"]);
    expect(schools.columns[3]!.samples).toEqual([]);
    const frpm = table(schema, "frpm");
    expect(frpm.foreignKeys).toEqual([{ columns: ["CDSCode"], refTable: "schools", refColumns: ["CDSCode"] }]);
    expect(frpm.columns[2]!.samples).toEqual([1.5, 9]);

    expect(schools.columns[0]!.description).toBe("County-District-School code");
    expect(schools.columns[1]!.description).toBe("County Name: the county, in California");
    expect(schools.columns[1]!.valueDescription).toBe('Alameda, Fresno, Kern "and" more');
    expect(frpm.columns[2]!.description).toBe("nombre de repas gratuits é");
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });

  it("quotes awkward names; composite keys; FK to the implicit primary key, other case", async () => {
    const schema = await readSchema(spiderDb, { executor, sampleValues: 2 });
    const items = table(schema, "Order Items");
    expect(items.primaryKey).toEqual(["order", "it's"]);
    expect(items.columns.map((c) => c.samples)).toEqual([[1, 2], ["a", "b"], ["x", "y"]]);
    const concert = table(schema, "concert");
    expect(concert.foreignKeys).toHaveLength(2);
    expect(concert.foreignKeys).toEqual(
      expect.arrayContaining([
        { columns: ["concert_ID", "note"], refTable: "Order Items", refColumns: ["order", "it's"] },
        { columns: ["Stadium_ID"], refTable: "stadium", refColumns: ["Stadium_ID"] },
      ]),
    );
  });

  it("sampleValues: 0 skips samples; results are cached by path, mtime and size", async () => {
    const a = await readSchema(spiderDb, { executor, sampleValues: 0 });
    expect(a.tables.every((t) => t.columns.every((c) => c.samples.length === 0))).toBe(true);
    const b = await readSchema(spiderDb, { executor, sampleValues: 0 });
    expect(b).toBe(a);
  });

  it("a bad description CSV never fails schema reading", async () => {
    const db = makeDb(dir, "bad/bad.sqlite", "CREATE TABLE t (a INTEGER);");
    const descriptions = path.join(dir, "bad", "database_description");
    mkdirSync(descriptions);
    writeFileSync(path.join(descriptions, "t.csv"), Buffer.from([0, 1, 2, 0xff, 0xfe, 0x22, 0x0a, 0x22]));
    const schema = await readSchema(db, { executor });
    expect(table(schema, "t").columns[0]!.description).toBeUndefined();
  });

  it("missing and garbage files throw one line naming the file", async () => {
    const garbage = path.join(dir, "garbage.sqlite");
    writeFileSync(garbage, "not a database ".repeat(100));
    for (const file of [path.join(dir, "nope.sqlite"), garbage]) {
      const error = await readSchema(file, { executor }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).toContain(file);
      expect(error?.message).not.toContain("\n");
    }
  });
});

describe("CSV and text helpers", () => {
  it("parses quoted fields, doubled quotes, CRLF and blank lines", () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi""\nthere"\n\n,\n')).toEqual([
      ["a", "b"],
      ["x, y", 'say "hi"\nthere'],
    ]);
    expect(parseCsv("a,b")).toEqual([["a", "b"]]);
  });

  it("decodes UTF-8 with BOM and falls back to latin-1", () => {
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0xc3, 0xa9]))).toBe("hé");
    expect(decodeText(new Uint8Array([0x68, 0xe9]))).toBe("hé");
  });

  it("tokenizes snake_case and camelCase, folds plurals", () => {
    expect(tokens("Free_Meal_Count schoolNames CDSCode")).toEqual(["free", "meal", "count", "school", "name", "cds", "code"]);
  });
});

describe("renderSchema", () => {
  it("renders CREATE TABLE text with keys, descriptions and examples", async () => {
    const text = renderSchema(await readSchema(birdDb, { executor }));
    expect(text).toContain("CREATE TABLE schools (\n  CDSCode TEXT NOT NULL, -- County-District-School code; examples: '01100170109835'");
    expect(text).toContain(`  "School Name" TEXT, -- examples: 'FAME Public Charter', 'Envision Academy'`);
    expect(text).toContain("  PRIMARY KEY (CDSCode)\n);");
    expect(text).toContain(`  "Free Meal Count (K-12)" REAL, -- nombre de repas gratuits é; examples: 1.5, 9`);
    expect(text).toContain("  FOREIGN KEY (CDSCode) REFERENCES schools (CDSCode)\n);");
    expect(text).toContain("values: Alameda, Fresno, Kern \"and\" more");
    expect(text).not.toContain("omitted");
    // Every comment stays on its line.
    for (const line of text.split("\n")) expect(line.split("--").length).toBeLessThanOrEqual(2);

    const plain = renderSchema(await readSchema(spiderDb, { executor }), { sampleValues: false });
    expect(plain).toContain(`CREATE TABLE "Order Items" (\n  "order" INTEGER,\n  "it's" TEXT,\n  "select" TEXT,\n  PRIMARY KEY ("order", "it's")\n);`);
    expect(plain).toContain(`FOREIGN KEY (concert_ID, note) REFERENCES "Order Items" ("order", "it's")`);
    expect(plain).not.toContain("examples");
  });

  // A synthetic schema of 300 tables, one of which the question is about.
  function wideSchema(): DbSchema {
    const tables: TableSchema[] = [];
    for (let i = 0; i < 300; i++) {
      tables.push({
        name: `table_${i}`,
        primaryKey: [`t${i}_id`],
        foreignKeys: i > 0 ? [{ columns: [`parent_id`], refTable: `table_${i - 1}`, refColumns: [`t${i - 1}_id`] }] : [],
        columns: [
          { name: `t${i}_id`, type: "INTEGER", primaryKey: true, notNull: true, samples: [1, 2, 3] },
          { name: "parent_id", type: "INTEGER", primaryKey: false, notNull: false, samples: [1] },
          ...Array.from({ length: 10 }, (_, k) => ({
            name: `attribute_${k}`,
            type: "TEXT",
            primaryKey: false,
            notNull: false,
            samples: ["lorem", "ipsum"],
            description: `a long description of attribute ${k} that says little`,
          })),
        ],
      });
    }
    tables[137]!.name = "swimming_pools";
    tables[137]!.columns.push({
      name: "water_temperature",
      type: "REAL",
      primaryKey: false,
      notNull: false,
      samples: [21.5],
      description: "temperature of the water in degrees Celsius",
    });
    return { path: "/x.sqlite", tables };
  }

  it("fits a budget, keeping keys and the relevant table and columns", () => {
    const schema = wideSchema();
    const full = renderSchema(schema);
    expect(full.length).toBeGreaterThan(100_000);
    for (const maxChars of [20_000, 4_000, 1_000]) {
      const text = renderSchema(schema, {
        question: "What is the average water temperature of swimming pools?",
        evidence: "temperature in Celsius",
        maxChars,
      });
      expect(text.length).toBeLessThanOrEqual(maxChars);
      expect(text).toContain("CREATE TABLE swimming_pools (");
      expect(text).toContain("  t137_id INTEGER NOT NULL");
      expect(text).toContain("  water_temperature REAL");
      expect(text).toContain("  PRIMARY KEY (t137_id)");
      expect(text).toContain("  FOREIGN KEY (parent_id) REFERENCES table_136 (t136_id)");
      expect(text).toMatch(/-- omitted to fit the size limit: \d+ tables/);
      // Kept tables keep their keys.
      for (const block of text.split("\n\n").filter((b) => b.startsWith("CREATE TABLE"))) {
        const name = /^CREATE TABLE (\S+)/.exec(block)![1]!;
        const t = schema.tables.find((x) => x.name === name)!;
        expect(block).toContain(`PRIMARY KEY (${t.primaryKey[0]})`);
      }
    }
    const roomy = renderSchema(schema, { question: "water temperature of swimming pools", maxChars: 20_000 });
    expect(roomy).toContain("-- temperature of the water in degrees Celsius; examples: 21.5");
    // Descriptions of unrelated columns go before whole tables do.
    const lines = roomy.split("\n");
    expect(lines.some((l) => l.includes("attribute_3 TEXT") && l.includes("--"))).toBe(false);
  });

  it("every question of a database gets its schema text, and a database changed between runs shows its new column", async () => {
    const file = makeDb(dir, "changing/shop.sqlite", "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO item VALUES (1, 'pen');");
    const schemaOf = async (question: string) => renderSchema(await readSchema(file, { executor }), { question, maxChars: 10_000 });
    const first = await schemaOf("How many items?");
    expect(first).toContain("CREATE TABLE item (");
    expect(await schemaOf("Which item is named pen?")).toBe(first);
    const db = new Database(file);
    db.exec("ALTER TABLE item ADD COLUMN price REAL; UPDATE item SET price = 2.5;");
    db.close();
    const changed = await schemaOf("How many items?");
    expect(changed).toContain("  price REAL");
    expect(changed).toContain("2.5");
  });

  it("keeps at least one table however small the budget", () => {
    const text = renderSchema(wideSchema(), { question: "swimming pools", maxChars: 10 });
    expect(text).toContain("CREATE TABLE swimming_pools (");
    expect(text).toMatch(/299 tables/);
  });
});
