import { z } from "zod";
/**
 * A JSON-safe view of a query result, for prompts, graph state and checkpoints.
 * INTEGER cells within the safe range become numbers; larger ones become decimal strings;
 * BLOBs become "<blob N bytes>". The full, typed result lives only in the executor's reply.
 */
export const PreviewCellSchema = z.union([z.null(), z.number(), z.string()]);
export const ResultPreviewSchema = z.object({
    columns: z.array(z.string()),
    rows: z.array(z.array(PreviewCellSchema)),
    /** Rows the query produced in all. */
    rowCount: z.number().int().nonnegative(),
    /** True when rows holds fewer rows than rowCount, or cells were shortened. */
    truncated: z.boolean(),
});
