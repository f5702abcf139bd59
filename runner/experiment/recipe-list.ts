import type { Recipe } from "./recipe.ts";

/** `--list`: every built-in recipe, what it reproduces, its runs and those that need what sqlmend lacks or a --set value. */
export function listRecipes(recipes: Record<string, Recipe>): string {
  return Object.values(recipes)
    .map((r) => {
      const runs = Object.values(r.runs);
      const needs = runs.filter((x) => x.needs).length;
      const sets = [...new Set(runs.flatMap((x) => [...Object.values(x.options).flat(), x.initial ?? ""].flatMap((v) => [...String(v).matchAll(/\{set:([^}]+)\}/g)].map((m) => m[1]!))))];
      const extra = [needs ? `${needs} need a method not in sqlmend (printed with the reason)` : "", sets.length ? `--set ${sets.map((x) => `${x}=FILE`).join(", ")} for the rows that need them` : ""].filter(Boolean);
      return `${r.name}\n  reproduces: ${r.reproduces ?? r.description ?? ""}\n  ${runs.length} runs${extra.length ? `; ${extra.join("; ")}` : ""}`;
    })
    .join("\n\n");
}
