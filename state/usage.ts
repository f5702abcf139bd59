import { z } from "zod";

/** One model call as a node made it: who asked, what it was shown, what it said, what it cost. */
export const ModelCallRecordSchema = z.object({
  role: z.string(),
  model: z.string(),
  messages: z.array(z.object({ role: z.string(), content: z.string() })),
  reply: z.string(),
  /** Every choice's reply, when the request asked for several (`n`); `reply` is the first. */
  replies: z.array(z.string()).optional(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  latencyMs: z.number().nonnegative(),
  /** How a structured reply was requested (jsonSchema, functionCalling, jsonMode, text), when it was. */
  method: z.string().optional(),
  /** One line: why the call failed or its reply was unusable. */
  error: z.string().optional(),
  /** The graph step and node that made the call (stamped by `withCalls`; parallel nodes of one step share a step). */
  step: z.number().int().optional(),
  node: z.string().optional(),
  /** Served by the response cache: no tokens spent (0 above); what the stored reply cost when it was made. */
  cached: z.boolean().optional(),
  savedInputTokens: z.number().int().nonnegative().optional(),
  savedOutputTokens: z.number().int().nonnegative().optional(),
  /** Not sent: an identical request of this question was answered at temperature 0 before; its reply, no tokens spent. */
  reused: z.boolean().optional(),
  /**
   * The model the server said answered (`response.model`) and its `system_fingerprint`: "gpt-4o-2024-08-06 fp_x".
   * For a cached reply, the version that made it when it was stored. Absent when the server names none.
   */
  served: z.string().optional(),
  /** The call failed and a weaker method the user allowed answered instead ("lexical": `--embedding-fallback lexical`). */
  fallback: z.string().optional(),
});
export type ModelCallRecord = z.infer<typeof ModelCallRecordSchema>;

export const UsageTotalsSchema = z.object({
  calls: z.number().int().nonnegative().default(0),
  inputTokens: z.number().int().nonnegative().default(0),
  outputTokens: z.number().int().nonnegative().default(0),
  latencyMs: z.number().nonnegative().default(0),
  /** Calls that got no reply (endpoint down, refused, timed out): counted so a run never fails silently. */
  failed: z.number().int().nonnegative().optional(),
  /** Calls the response cache answered (counted in `calls`, their tokens not in the token counts), and the tokens they saved. */
  cached: z.number().int().nonnegative().optional(),
  savedTokens: z.number().int().nonnegative().optional(),
  /** savedTokens split: what a method costs does not change when the cache serves it (cost at prices needs both). */
  savedInputTokens: z.number().int().nonnegative().optional(),
  savedOutputTokens: z.number().int().nonnegative().optional(),
  /** Replies not sent for because the question had answered the identical request at temperature 0 (records with `reused`): not in `calls`. */
  reused: z.number().int().nonnegative().optional(),
  /** Calls that failed and were answered by a fallback the user asked for (records with `fallback`). */
  fallbacks: z.number().int().nonnegative().optional(),
});
export type UsageTotals = z.infer<typeof UsageTotalsSchema>;

export const UsageSchema = UsageTotalsSchema.extend({
  byRole: z.record(z.string(), UsageTotalsSchema).default({}),
  /** The first failed call's error, one line. */
  failure: z.string().optional(),
  /** Calls answered live, by served version (`ModelCallRecord.served`). */
  served: z.record(z.string(), z.number()).optional(),
  /** Calls the response cache answered, by the served version that made the stored reply. */
  servedCached: z.record(z.string(), z.number()).optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

export { UNCHANGED_RETRY, unchangedRetryNote } from "./unchanged-retry.ts";

export const emptyUsage = (): Usage => ({ calls: 0, inputTokens: 0, outputTokens: 0, latencyMs: 0, byRole: {} });

const addTotals = (a: UsageTotals, b: UsageTotals): UsageTotals => {
  const failed = (a.failed ?? 0) + (b.failed ?? 0);
  const cached = (a.cached ?? 0) + (b.cached ?? 0);
  const savedTokens = (a.savedTokens ?? 0) + (b.savedTokens ?? 0);
  const savedInputTokens = (a.savedInputTokens ?? 0) + (b.savedInputTokens ?? 0);
  const savedOutputTokens = (a.savedOutputTokens ?? 0) + (b.savedOutputTokens ?? 0);
  const fallbacks = (a.fallbacks ?? 0) + (b.fallbacks ?? 0);
  const reused = (a.reused ?? 0) + (b.reused ?? 0);
  return {
    calls: a.calls + b.calls,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    latencyMs: a.latencyMs + b.latencyMs,
    ...(failed ? { failed } : {}),
    ...(cached ? { cached } : {}),
    ...(savedTokens ? { savedTokens } : {}),
    ...(savedInputTokens ? { savedInputTokens } : {}),
    ...(savedOutputTokens ? { savedOutputTokens } : {}),
    ...(fallbacks ? { fallbacks } : {}),
    ...(reused ? { reused } : {}),
  };
};

/** Counts by key, summed (undefined when both are). */
export function addCounts(a: Record<string, number> | undefined, b: Record<string, number> | undefined): Record<string, number> | undefined {
  if (!a || !b) return a ?? b;
  const sum = { ...a };
  for (const [k, n] of Object.entries(b)) sum[k] = (sum[k] ?? 0) + n;
  return sum;
}

/** Sums two usage reports, role by role. Associative, so it serves as a state reducer. */
export function addUsage(a: Usage, b: Usage): Usage {
  const byRole: Record<string, UsageTotals> = { ...a.byRole };
  for (const [role, totals] of Object.entries(b.byRole)) {
    byRole[role] = addTotals(byRole[role] ?? { calls: 0, inputTokens: 0, outputTokens: 0, latencyMs: 0 }, totals);
  }
  const failure = a.failure ?? b.failure;
  const served = addCounts(a.served, b.served);
  const servedCached = addCounts(a.servedCached, b.servedCached);
  return { ...addTotals(a, b), byRole, ...(failure ? { failure } : {}), ...(served ? { served } : {}), ...(servedCached ? { servedCached } : {}) };
}

/**
 * What `total` holds beyond `part` (a replay's suffix: the final usage less the recorded prefix's), role by role.
 * `failure` is kept only when the difference has failed calls (it is the first failure of `total`).
 */
export function subtractUsage(total: Usage, part: Usage): Usage {
  const less = (a: UsageTotals, b: UsageTotals | undefined): UsageTotals => {
    const diff = (key: "failed" | "cached" | "savedTokens" | "savedInputTokens" | "savedOutputTokens" | "reused") => Math.max(0, (a[key] ?? 0) - (b?.[key] ?? 0));
    const optional = { failed: diff("failed"), cached: diff("cached"), savedTokens: diff("savedTokens"), savedInputTokens: diff("savedInputTokens"), savedOutputTokens: diff("savedOutputTokens"), reused: diff("reused") };
    return {
      calls: Math.max(0, a.calls - (b?.calls ?? 0)),
      inputTokens: Math.max(0, a.inputTokens - (b?.inputTokens ?? 0)),
      outputTokens: Math.max(0, a.outputTokens - (b?.outputTokens ?? 0)),
      latencyMs: Math.max(0, a.latencyMs - (b?.latencyMs ?? 0)),
      ...Object.fromEntries(Object.entries(optional).filter(([, n]) => n > 0)),
    };
  };
  const byRole: Record<string, UsageTotals> = {};
  for (const [role, totals] of Object.entries(total.byRole)) {
    const left = less(totals, part.byRole[role]);
    if (left.calls || left.inputTokens || left.outputTokens || left.reused) byRole[role] = left;
  }
  const totals = less(total, part);
  return { ...totals, byRole, ...(totals.failed && total.failure ? { failure: total.failure } : {}) };
}

export function usageOfCalls(calls: ModelCallRecord[]): Usage {
  return calls.reduce((usage, call) => {
    // A call that got no reply at all (callModel's "model call failed: ..."), not one whose reply was unusable.
    const failed = call.error?.startsWith("model call failed:") ? { failed: 1 } : {};
    const cached = call.cached ? { cached: 1, savedTokens: (call.savedInputTokens ?? 0) + (call.savedOutputTokens ?? 0), savedInputTokens: call.savedInputTokens ?? 0, savedOutputTokens: call.savedOutputTokens ?? 0 } : {};
    // `calls` counts requests sent (the cache's answers included: the method asked them); a reused reply was never sent.
    const totals = { calls: call.reused ? 0 : 1, inputTokens: call.inputTokens, outputTokens: call.outputTokens, latencyMs: call.latencyMs, ...failed, ...cached, ...(call.fallback ? { fallbacks: 1 } : {}), ...(call.reused ? { reused: 1 } : {}) };
    // A reused reply was counted when it was answered; a cached one by the version that made it.
    const served = call.served && !call.reused ? { [call.cached ? "servedCached" : "served"]: { [call.served]: 1 } } : {};
    return addUsage(usage, { ...totals, byRole: { [call.role]: totals }, ...(failed.failed ? { failure: call.error } : {}), ...served });
  }, emptyUsage());
}

/**
 * A failed call's error that says the endpoint did not answer (not that this request was refused): connection
 * refused or reset, no such host, timeouts, 5xx, 429 beyond the retries, a reply without choices.
 */
export const isEndpointFailure = (error: string): boolean =>
  error.includes("model call failed:") &&
  /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ETIMEDOUT|connection error|fetch failed|socket|timed? ?out|\b(429|5\d\d)\b|no choices|overloaded|unavailable/i.test(error);
