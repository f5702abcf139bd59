/**
 * What marks the mock model's runs (`--model mock`), without loading the mock itself: the launcher's reports,
 * `compare` and experiments read it from a run's run.json (`mock: true`) or its models (`describe()`).
 */
/** The model name that selects the mock (`--model mock`, `--embedding-model mock`). */
export const MOCK_MODEL = "mock";
/** What every run, report and page of the mock says. */
export const MOCK_LABEL = "mock model — not a measurement";
/** The response cache as a mock run records it: never used (the mock's replies are not a model's). */
export const MOCK_CACHE_SETTING = "off (mock model)";

/** True for a run (run.json, or `{ models }` from a provider's `describe()`) that the mock model answered. */
export function isMockRun(run: { mock?: unknown; models?: unknown } | null | undefined): boolean {
  if (!run) return false;
  if (run.mock === true) return true;
  const models = run.models as { mock?: unknown; model?: unknown } | null | undefined;
  return models?.mock === true || models?.model === MOCK_MODEL;
}

/** One line refusing a mix of mock and real runs (compare, experiments), or undefined when they do not mix. */
export function mockMixRefusal(runs: { name: string; run: Parameters<typeof isMockRun>[0] }[]): string | undefined {
  const mock = runs.filter((r) => isMockRun(r.run));
  if (!mock.length || mock.length === runs.length) return undefined;
  return `${mock.map((r) => r.name).join(", ")} ${mock.length === 1 ? "was" : "were"} answered by the mock model (not a measurement): compare mock runs only with mock runs`;
}
