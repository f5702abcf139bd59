/**
 * Every agent of every graph behind the local OpenAI-compatible server, for the side-by-side e2e test and
 * bench/methods.ts: the built-in mock model's agents (tools/models/mock-agents.ts, which says what each answers),
 * reached over HTTP. The role of a request is read from its model name: `agentsConfig()` gives each role its own model
 * (`agent/<role>`) in a sqlmend.config.json, so the responder knows who is asking without guessing from prompts.
 * Requests under any other model name are counted in `unrouted` (a role the responder does not know yet).
 * Embeddings come from the server itself (hashed 3-grams) when an embedding model is configured.
 */
import type { ChatRequestRecord, ScriptedReply } from "./openai-server.ts";
import { AGENT_ROLES, mockAgents, type MockAgentsOptions } from "../../tools/models/mock-agents.ts";

export { AGENT_ROLES, DATA_MAX_ROWS, DATA_MIN_ROWS, defaultInitial, failing, promptTables, wrongResult, type AgentRole, type InitialPlan } from "../../tools/models/mock-agents.ts";
export type MethodAgentsOptions = MockAgentsOptions;

const MODEL_PREFIX = "agent/";
export const EMBEDDING_MODEL = "agent/embedder";

/** A sqlmend.config.json body: one model per role, so the server can tell the roles apart; embeddings on. */
export function agentsConfig(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: "agent/unrouted",
    embeddingModel: EMBEDDING_MODEL,
    roles: Object.fromEntries(AGENT_ROLES.map((role) => [role, { model: `${MODEL_PREFIX}${role}` }])),
    ...extra,
  };
}

export interface MethodAgents {
  respond: (req: ChatRequestRecord) => ScriptedReply;
  /** Requests per role. */
  calls: Map<string, number>;
  /** Requests whose model named no known role. */
  unrouted: ChatRequestRecord[];
  /**
   * Told of a structured reply the schema-only stand-in made in their stead (`schemaOnly.onReply`): the data agent's
   * rows are kept for its coder, whose code then answers on them as on its own.
   */
  onSchemaReply: (req: ChatRequestRecord, value: unknown) => void;
}

export function methodAgents(options: MethodAgentsOptions): MethodAgents {
  const agents = mockAgents(options);
  const calls = new Map<string, number>();
  const unrouted: ChatRequestRecord[] = [];
  const respond = (req: ChatRequestRecord): ScriptedReply => {
    // `--coder-models agent/coder-1,agent/coder-2,...`: each a coder (TS-SQL's voting coders).
    const role = req.model.startsWith(MODEL_PREFIX) ? req.model.slice(MODEL_PREFIX.length).replace(/^coder-.*$/, "coder") : "";
    calls.set(role || req.model, (calls.get(role || req.model) ?? 0) + 1);
    if (!(AGENT_ROLES as readonly string[]).includes(role)) unrouted.push(req);
    return agents.respond({ role, messages: req.messages });
  };
  const onSchemaReply = (req: ChatRequestRecord, value: unknown) => {
    const role = req.model.startsWith(MODEL_PREFIX) ? req.model.slice(MODEL_PREFIX.length) : "";
    agents.onSchemaReply({ role, messages: req.messages }, value);
  };
  return { respond, calls, unrouted, onSchemaReply };
}
