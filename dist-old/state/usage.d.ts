import { z } from "zod";
/** One model call as a node made it: who asked, what it was shown, what it said, what it cost. */
export declare const ModelCallRecordSchema: z.ZodObject<{
    role: z.ZodString;
    model: z.ZodString;
    messages: z.ZodArray<z.ZodObject<{
        role: z.ZodString;
        content: z.ZodString;
    }, z.core.$strip>>;
    reply: z.ZodString;
    inputTokens: z.ZodNumber;
    outputTokens: z.ZodNumber;
    latencyMs: z.ZodNumber;
    method: z.ZodOptional<z.ZodString>;
    error: z.ZodOptional<z.ZodString>;
    step: z.ZodOptional<z.ZodNumber>;
    node: z.ZodOptional<z.ZodString>;
    cached: z.ZodOptional<z.ZodBoolean>;
    savedInputTokens: z.ZodOptional<z.ZodNumber>;
    savedOutputTokens: z.ZodOptional<z.ZodNumber>;
    fallback: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type ModelCallRecord = z.infer<typeof ModelCallRecordSchema>;
export declare const UsageTotalsSchema: z.ZodObject<{
    calls: z.ZodDefault<z.ZodNumber>;
    inputTokens: z.ZodDefault<z.ZodNumber>;
    outputTokens: z.ZodDefault<z.ZodNumber>;
    latencyMs: z.ZodDefault<z.ZodNumber>;
    failed: z.ZodOptional<z.ZodNumber>;
    cached: z.ZodOptional<z.ZodNumber>;
    savedTokens: z.ZodOptional<z.ZodNumber>;
    savedInputTokens: z.ZodOptional<z.ZodNumber>;
    savedOutputTokens: z.ZodOptional<z.ZodNumber>;
    fallbacks: z.ZodOptional<z.ZodNumber>;
}, z.core.$strip>;
export type UsageTotals = z.infer<typeof UsageTotalsSchema>;
export declare const UsageSchema: z.ZodObject<{
    calls: z.ZodDefault<z.ZodNumber>;
    inputTokens: z.ZodDefault<z.ZodNumber>;
    outputTokens: z.ZodDefault<z.ZodNumber>;
    latencyMs: z.ZodDefault<z.ZodNumber>;
    failed: z.ZodOptional<z.ZodNumber>;
    cached: z.ZodOptional<z.ZodNumber>;
    savedTokens: z.ZodOptional<z.ZodNumber>;
    savedInputTokens: z.ZodOptional<z.ZodNumber>;
    savedOutputTokens: z.ZodOptional<z.ZodNumber>;
    fallbacks: z.ZodOptional<z.ZodNumber>;
    byRole: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodObject<{
        calls: z.ZodDefault<z.ZodNumber>;
        inputTokens: z.ZodDefault<z.ZodNumber>;
        outputTokens: z.ZodDefault<z.ZodNumber>;
        latencyMs: z.ZodDefault<z.ZodNumber>;
        failed: z.ZodOptional<z.ZodNumber>;
        cached: z.ZodOptional<z.ZodNumber>;
        savedTokens: z.ZodOptional<z.ZodNumber>;
        savedInputTokens: z.ZodOptional<z.ZodNumber>;
        savedOutputTokens: z.ZodOptional<z.ZodNumber>;
        fallbacks: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strip>>>;
    failure: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type Usage = z.infer<typeof UsageSchema>;
export declare const emptyUsage: () => Usage;
/** Sums two usage reports, role by role. Associative, so it serves as a state reducer. */
export declare function addUsage(a: Usage, b: Usage): Usage;
/**
 * What `total` holds beyond `part` (a replay's suffix: the final usage less the recorded prefix's), role by role.
 * `failure` is kept only when the difference has failed calls (it is the first failure of `total`).
 */
export declare function subtractUsage(total: Usage, part: Usage): Usage;
export declare function usageOfCalls(calls: ModelCallRecord[]): Usage;
/**
 * A failed call's error that says the endpoint did not answer (not that this request was refused): connection
 * refused or reset, no such host, timeouts, 5xx, 429 beyond the retries, a reply without choices.
 */
export declare const isEndpointFailure: (error: string) => boolean;
