import type { NodeDeps } from "../nodes/types.ts";

/**
 * Deps that refuse to be used, for building a graph only to wire it (reading a thread's steps, listing its nodes):
 * a factory that calls a model or runs SQL at build time fails, saying `purpose` ("reading a thread"). Imports no
 * model or executor code, so a reader that builds graphs loads none.
 */
export function inertDeps(purpose: string): NodeDeps {
  return {
    models: {
      forRole() {
        throw new Error(`${purpose} runs no model`);
      },
      limiter: undefined as never,
      structuredMethodCache: new Map(),
      describe: () => ({}),
    },
    executor: {
      run() {
        throw new Error(`${purpose} runs no SQL`);
      },
      close: async () => {},
    },
  };
}
