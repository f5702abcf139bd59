import { describe, expect, it } from "vitest";
import { extractJson, extractSql, stripThinking } from "../tools/reply.ts";

describe("extractSql", () => {
  it("takes the last ```sql block", () => {
    const reply = "First try:\n```sql\nSELECT 1;\n```\nBetter:\n```sql\nSELECT name FROM singer;\n```\nDone.";
    expect(extractSql(reply)).toBe("SELECT name FROM singer");
  });

  it("ignores <think> preambles, also when the opening tag was stripped by the server", () => {
    expect(extractSql("<think>maybe ```sql\nSELECT wrong\n```</think>\n```sql\nSELECT right\n```")).toBe("SELECT right");
    expect(extractSql("reasoning SELECT wrong</think>\nSELECT right FROM t")).toBe("SELECT right FROM t");
  });

  it("reads bare SQL and an unlabelled fence holding SQL", () => {
    expect(extractSql("SELECT a, b\nFROM t\nWHERE a > 1;")).toBe("SELECT a, b\nFROM t\nWHERE a > 1");
    expect(extractSql("```\nWITH x AS (SELECT 1) SELECT * FROM x\n```")).toBe("WITH x AS (SELECT 1) SELECT * FROM x");
    expect(extractSql("Here is the query:\nSELECT count(*) FROM t")).toBe("SELECT count(*) FROM t");
  });

  it("reads the SQL after a PoT reply's ```python block, never the program", () => {
    const pot = "Plan:\n```python\nrows = [c for c in customers if c.city == 'London']\nnames = [c.name for c in rows]\n```\nSELECT name\nFROM customers\nWHERE city = 'London';";
    expect(extractSql(pot)).toBe("SELECT name\nFROM customers\nWHERE city = 'London'");
    expect(extractSql("```python\nprint(1)\n```\n\nSELECT 1")).toBe("SELECT 1");
    expect(extractSql("So the query is\nSELECT a FROM t")).toBe("SELECT a FROM t");
  });

  it("takes an unterminated fence cut off at the token limit", () => {
    expect(extractSql("```sql\nSELECT a FROM t WHERE b = 1")).toBe("SELECT a FROM t WHERE b = 1");
  });

  it("returns null when there is no SQL, or only reasoning that never closed", () => {
    expect(extractSql("I cannot answer that.")).toBeNull();
    expect(extractSql("<think>SELECT 1 ... and then")).toBeNull();
    expect(extractSql("```python\nprint(1)\n```")).toBeNull();
  });
});

describe("extractJson", () => {
  it("parses the last JSON object, fenced or inline, with braces inside strings", () => {
    expect(extractJson('```json\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('Sure. {"x": "a } b", "y": [1, 2]} hope that helps')).toEqual({ ok: true, value: { x: "a } b", y: [1, 2] } });
    expect(extractJson('<think>{"draft": true}</think>{"final": true}')).toEqual({ ok: true, value: { final: true } });
  });

  it("says why when there is none", () => {
    expect(extractJson("no json here")).toMatchObject({ ok: false });
    expect(extractJson("{not: json}")).toMatchObject({ ok: false, error: expect.stringMatching(/valid/) });
  });
});

describe("stripThinking", () => {
  it("removes paired and dangling reasoning", () => {
    expect(stripThinking("<think>a</think>b")).toBe("b");
    expect(stripThinking("a</think>b")).toBe("b");
    expect(stripThinking("b<think>unfinished")).toBe("b");
  });
});
