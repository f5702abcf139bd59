/** How a loop's note starts when it stopped because its next request was one the question had answered at temperature 0 (no zod: outcome.ts reads it). */
export const UNCHANGED_RETRY = "unchanged retry";

/** The note of such a stop: asking again unchanged could only get the same reply. */
export const unchangedRetryNote = (role: string, what: string): string =>
  `${UNCHANGED_RETRY}: the ${role} had answered this exact request before (${what}) at temperature 0; its reply reused, not asked again, the loop stops`;
