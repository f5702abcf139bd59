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
