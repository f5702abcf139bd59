import type { MemoNodeFactory, WritePayload } from "./solve.ts";
/**
 * Slot `write` (role `writer`), once per (path, style): the final query for the whole question in one style, with
 * `exemplars` training examples retrieved by question + skeleton of the path's latest sub-SQL (§3.4.1; dense with
 * the shared embedder, else lexical; none under noIcl or without a training split; `meta.icl` says which). Out: one candidate `strategy:style`, executed; then the collect gate.
 */
export declare const writeNode: MemoNodeFactory<WritePayload>;
