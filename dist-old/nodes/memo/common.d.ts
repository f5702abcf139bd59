import { z } from "zod";
import type { Execution } from "../../state/sql-state.ts";
import type { Linking } from "../../state/linking.ts";
import type { ModelCallRecord } from "../../state/usage.ts";
import type { Example, ExampleStore } from "../../tools/retrieval/examples.ts";
import { type Embedder } from "../../tools/models/embeddings.ts";
import { type ErrorType } from "../../tools/retrieval/memory-store.ts";
import type { ModelProvider } from "../../tools/models/models.ts";
import { type PromptContext } from "./prompts.ts";
/** What every Memo-SQL branch carries (a `Send` payload holds only this, not the whole state). */
export interface MemoContext extends PromptContext {
    questionId: string;
    dbId: string;
    dbPath: string;
}
export declare function contextOf(state: {
    questionId: string;
    dbId: string;
    question: string;
    evidence: string;
    dbPath: string;
    schemaText: string;
    linking: Linking | null;
}, useLinking?: boolean): MemoContext;
/** Linked columns and values as a prompt block (A.2: matched schema items as grounded context). */
export declare function renderLinking(linking: Linking | null): string;
/** An execution as one line for prompts: the first rows, or the error. */
export declare function observe(execution: Execution): string;
export declare const LabelSchema: z.ZodObject<{
    errorTypes: z.ZodArray<z.ZodPreprocess<z.ZodEnum<{
        join_logic_error: "join_logic_error";
        filter_condition_error: "filter_condition_error";
        aggregation_grouping_error: "aggregation_grouping_error";
        select_output_error: "select_output_error";
        ordering_limit_error: "ordering_limit_error";
        subquery_logic_error: "subquery_logic_error";
        null_handling_error: "null_handling_error";
        temporal_semantics_error: "temporal_semantics_error";
        quantifier_intent_error: "quantifier_intent_error";
    }>, unknown>>;
    suggestions: z.ZodString;
}, z.core.$strip>;
/**
 * The labeler (role `labeler`): error types from the taxonomy and correction suggestions for a wrong query. Types
 * outside the taxonomy fail validation and are sent back (callStructured re-asks with the error) up to 3 times.
 */
export declare function labelError(models: ModelProvider, args: PromptContext & {
    goldSql: string;
    wrongSql: string;
}): Promise<{
    ok: true;
    errorTypes: ErrorType[];
    suggestions: string;
    records: ModelCallRecord[];
} | {
    ok: false;
    error: string;
    records: ModelCallRecord[];
}>;
/**
 * The k training examples closest to question + skeleton of the latest sub-SQL (§3.4.1), over the same kind of key
 * as the memory (question + skeleton of the gold SQL): dense with the shared embedder when there is one (all keys
 * embedded once per process), else BM25 built once per example store. Never the question itself (same id or text).
 */
export declare function exemplarsFor(examples: ExampleStore, embedder: Embedder | undefined, question: string, sql: string, k: number, exclude: {
    id: string;
    dbId: string;
    question: string;
}): Promise<{
    examples: Example[];
    ranking: string;
    records: ModelCallRecord[];
}>;
