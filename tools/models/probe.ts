/**
 * One look at each configured model endpoint before a run spends anything: a down server is known in seconds, in one
 * line naming the URL and what to check, rather than after every question's retries. Any HTTP reply counts as up
 * (a server without `/models` answers 404); only no reply at all (refused, unreachable, silent past the timeout) fails.
 */
import { UserError } from "../../core/errors.ts";
import { maskSecrets } from "../../core/secrets.ts";
import type { ModelConfig } from "./models.ts";

/** How long the probe waits for any reply: a live server answers a GET in well under this. */
export const PROBE_TIMEOUT_MS = 3_000;

/** Why `url` gave no reply within the timeout, or undefined when it answered (whatever its status). */
export async function probeEndpoint(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<string | undefined> {
  try {
    const res = await fetch(`${url.replace(/\/+$/, "")}/models`, { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return undefined;
  } catch (error) {
    const e = error as { name?: string; cause?: { code?: string; message?: string }; message?: string };
    if (e.name === "TimeoutError" || e.name === "AbortError") return `no reply within ${timeoutMs / 1000} s`;
    return e.cause?.code ?? e.cause?.message ?? e.message ?? String(error);
  }
}

/** The endpoints a config names (chat, per-role, embeddings); OpenAI's own API is not probed. */
export function endpointsOf(config: ModelConfig): { url: string; what: string }[] {
  const found = new Map<string, string>();
  if (config.baseURL) found.set(config.baseURL, "OPENAI_BASE_URL / --base-url");
  for (const [role, settings] of Object.entries(config.roles)) if (settings.baseURL && !found.has(settings.baseURL)) found.set(settings.baseURL, `the ${role} role's baseURL in the config`);
  if (config.embeddingModel && config.embeddingBaseURL && !found.has(config.embeddingBaseURL)) found.set(config.embeddingBaseURL, "SQLMEND_EMBEDDING_BASE_URL / --embedding-base-url");
  return [...found].map(([url, what]) => ({ url, what }));
}

/** Probes every endpoint at once; the first that gave no reply is a one-line UserError. */
export async function checkEndpoints(config: ModelConfig, timeoutMs = PROBE_TIMEOUT_MS): Promise<void> {
  const endpoints = endpointsOf(config);
  const down = await Promise.all(endpoints.map(async (e) => ({ ...e, why: await probeEndpoint(e.url, timeoutMs) })));
  const first = down.find((e) => e.why);
  if (first) {
    throw new UserError(
      `the model endpoint ${maskSecrets(first.url)} does not answer (${first.why}): check that the server is running and that ${first.what} names it; nothing was run`,
    );
  }
}
