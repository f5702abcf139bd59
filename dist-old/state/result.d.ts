import { z } from "zod";
/**
 * A JSON-safe view of a query result, for prompts, graph state and checkpoints.
 * INTEGER cells within the safe range become numbers; larger ones become decimal strings;
 * BLOBs become "<blob N bytes>". The full, typed result lives only in the executor's reply.
 */
export declare const PreviewCellSchema: z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString]>;
export declare const ResultPreviewSchema: z.ZodObject<{
    columns: z.ZodArray<z.ZodString>;
    rows: z.ZodArray<z.ZodArray<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString]>>>;
    rowCount: z.ZodNumber;
    truncated: z.ZodBoolean;
}, z.core.$strip>;
export type ResultPreview = z.infer<typeof ResultPreviewSchema>;
export type PreviewCell = z.infer<typeof PreviewCellSchema>;
