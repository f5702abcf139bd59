// Type tests of the run API's graph names and options (checked by `npm run typecheck`, not run): a misspelt option or
// graph name, or a value of the wrong kind, does not compile (each @ts-expect-error fails tsc once it would).
import type { GraphOptionsOf, BuiltInGraphName } from "../graphs/registry.ts";
const a: GraphOptionsOf<"r3"> = { reviewers: 2, maxReviewTurns: 3 };
// @ts-expect-error misspelt
const b: GraphOptionsOf<"r3"> = { reviwers: 2 };
// @ts-expect-error wrong kind
const c: GraphOptionsOf<"r3"> = { reviewers: "two" };
const d: GraphOptionsOf<"ts-sql"> = { coderModels: ["a", "b"] };
const n: BuiltInGraphName = "baseline";
// @ts-expect-error misspelt
const m: BuiltInGraphName = "basline";
type K = keyof GraphOptionsOf<"memo-sql">;
const k: K[] = ["noIcl"];
export { a, b, c, d, n, m, k };
