/**
 * The docs a newcomer reads (issue 27, point 4): a short README and ARCHITECTURE, the reference in docs/, its tables
 * generated from the declarations (scripts/docs.ts), and no link that points nowhere.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { graphManifests } from "../graphs/registry.ts";
import { BUILT_IN_RECIPES } from "../runner/experiment/built-in-recipes.ts";
import { docFiles, DOCS_ROOT, regionsOf, staleDocs, writeDocs } from "../scripts/docs.ts";

const read = (rel: string) => fs.readFileSync(path.join(DOCS_ROOT, rel), "utf8");
const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

/** Text outside fenced code blocks, line by line (fences and their contents blanked, so line numbers stay). */
function prose(text: string): string[] {
  let fence = false;
  return text.split("\n").map((line) => {
    if (/^\s*```/.test(line)) {
      fence = !fence;
      return "";
    }
    return fence ? "" : line;
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (letters and digits of any script kept), spaces → '-'. */
export function slugOf(heading: string): string {
  return heading
    .replace(/`/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a Markdown file defines (duplicate headings get -1, -2, … as on GitHub). */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of prose(text)) {
    const m = /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const slug = slugOf(m[1]!);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n ? `${slug}-${n}` : slug);
  }
  return anchors;
}

/** Relative links (`[text](target)`) of a Markdown file that point to no file, or to no heading of their file. */
export function brokenLinks(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const broken: string[] = [];
  // Code spans may run over a line end: drop them over the whole text, keeping the line ends (and so the line numbers).
  const unquoted = prose(text).join("\n").replace(/`[^`]*`/g, (code) => code.replace(/[^\n]/g, ""));
  unquoted.split("\n").forEach((line, i) => {
    for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/i.test(target)) continue;
      const [rel, anchor] = target.split("#") as [string, string | undefined];
      const to = rel ? path.resolve(path.dirname(file), decodeURIComponent(rel)) : file;
      const where = `${path.relative(DOCS_ROOT, file)}:${i + 1}: ${target}`;
      if (!fs.existsSync(to)) broken.push(`${where} (no such file)`);
      else if (anchor && (!to.endsWith(".md") || !anchorsOf(fs.readFileSync(to, "utf8")).has(decodeURIComponent(anchor)))) broken.push(`${where} (no such heading)`);
    }
  });
  return broken;
}

describe("README and ARCHITECTURE stay short", () => {
  it("README.md has at most 300 lines, ARCHITECTURE.md at most 250", () => {
    expect(lineCount(read("README.md"))).toBeLessThanOrEqual(300);
    expect(lineCount(read("ARCHITECTURE.md"))).toBeLessThanOrEqual(250);
  });

  it("ARCHITECTURE.md's table cells are short: long explanations live in docs/internals.md and the method pages", () => {
    const long = prose(read("ARCHITECTURE.md"))
      .filter((l) => l.startsWith("|"))
      .flatMap((l) => l.split(/(?<!\\)\|/).map((c) => c.trim()))
      .filter((c) => c.length > 400);
    expect(long.map((c) => c.slice(0, 80))).toEqual([]);
  });

  it("docs/commands.md is every command's usage as --help prints it (compare --show, memo candidates, eval --graph, magic's optional --initial)", () => {
    const commands = read("docs/commands.md");
    expect(regionsOf(commands)).toContain("commands");
    expect(commands).toContain("[--show N]");
    expect(commands).toContain("sqlmend memo candidates --run DIR --out FILE");
    expect(commands).toContain("--graph MODULE");
    expect(commands).toMatch(/sqlmend magic guideline --bench DIR\|minibench --out DIR \[--split train\] \[--initial GRAPH\|FILE\]/);
  });

  it("no page holds a merge's conflict markers (a page is text people read, not a half-done merge)", () => {
    const marked = docFiles().filter((file) => /^(<{7}|>{7}) /m.test(fs.readFileSync(file, "utf8")));
    expect(marked).toEqual([]);
  });

  it("README keeps the two set-up commands: the main job and the tests", () => {
    const readme = read("README.md");
    expect(readme).toContain("npm install && OPENAI_BASE_URL=http://127.0.0.1:11434/v1 SQLMEND_MODEL=qwen2.5-coder:7b node bin/sqlmend.js eval baseline --bench minibench --out runs/baseline");
    expect(readme).toContain("npm install && npm test");
  });
});

describe("links", () => {
  it("every relative link in README, ARCHITECTURE and docs/ points to a file, and an anchor to one of its headings", () => {
    expect(docFiles().flatMap(brokenLinks)).toEqual([]);
  });

  it("the link check finds a missing file and a missing heading", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "docs-links-"));
    try {
      fs.writeFileSync(path.join(dir, "b.md"), "# R³: review, rebuttal\n\n## Options\n");
      const a = path.join(dir, "a.md");
      fs.writeFileSync(a, "[ok](b.md#r³-review-rebuttal) [ok](b.md#options) [gone](c.md) [nowhere](b.md#cost) `[code](x.md)` `a\ncode span` [after](d.md)\n```\n[fenced](y.md)\n```\n");
      expect(brokenLinks(a).map((l) => l.split(": ")[1])).toEqual(["c.md (no such file)", "b.md#cost (no such heading)", "d.md (no such file)"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("README links into docs/, so the package ships docs/ (package.json files)", () => {
    const files = (JSON.parse(read("package.json")) as { files: string[] }).files;
    const targets = [...read("README.md").matchAll(/\]\((?!https?:)([^)#\s]+)/g)].map((m) => m[1]!.split("/")[0]!);
    for (const top of new Set(targets)) expect(files, `README links to ${top}`).toContain(top);
  });
});

describe("generated tables (scripts/docs.ts)", () => {
  it("every generated region is what the declarations make (run `npx tsx scripts/docs.ts`)", () => {
    expect(staleDocs()).toEqual([]);
  });

  it("every graph's options are on a page: each graph is named by a generated options region", () => {
    const named = docFiles().flatMap((f) => regionsOf(fs.readFileSync(f, "utf8"))).filter((r) => r.startsWith("options ")).flatMap((r) => r.split(/\s+/).slice(1));
    expect(graphManifests.map((g) => g.name).filter((g) => !named.includes(g))).toEqual([]);
  });

  it("a region edited by hand is stale, and writeDocs makes it again from the declarations", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "docs-gen-"));
    try {
      fs.mkdirSync(path.join(root, "docs", "methods"), { recursive: true });
      const page = path.join(root, "docs", "methods", "r3.md");
      fs.writeFileSync(page, "# R³\n\n<!-- generated: options r3 -->\n| `--reviewers N` | `5` |\n<!-- /generated -->\n\n<!-- generated: recipes -->\n<!-- /generated -->\n");
      expect(staleDocs(root)).toEqual([path.join("docs", "methods", "r3.md")]);
      expect(writeDocs(root)).toEqual([path.join("docs", "methods", "r3.md")]);
      const made = fs.readFileSync(page, "utf8");
      expect(made).toMatch(/^\| `--reviewers N` \| `3` \(0–16\) \| r3 \| graph \| reviewer agents per round/m);
      expect(made).toMatch(/^\| `--k-shot N` \| `5` \(0–50\) \| r3 \|/m);
      for (const name of Object.keys(BUILT_IN_RECIPES)) expect(made).toContain(`| \`${name}\` |`);
      expect(staleDocs(root)).toEqual([]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("the hand-written table of what each recipe's rows are names exactly the built-in recipes", () => {
    const text = read("docs/experiments.md");
    const table = text.split("What each recipe's rows are")[1]!.split("\n\n")[1]!;
    const names = table.split("\n").slice(2).map((row) => /^\| `([^`]+)` \|/.exec(row)?.[1]);
    expect(names.sort()).toEqual(Object.keys(BUILT_IN_RECIPES).sort());
  });
});
