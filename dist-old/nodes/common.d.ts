import type { SqlStateUpdate, SqlStateValue } from "../state/sql-state.ts";
import { type ModelCallRecord, type Usage } from "../state/usage.ts";
import { type ChatInput } from "../tools/models/llm.ts";
import type { ModelProvider } from "../tools/models/models.ts";
/**
 * A model node's update: its own fields plus the records of its calls and their usage (the node contract). Each
 * record is stamped with the graph step and node that made it, so parallel nodes' calls of one step stay together
 * in `calls` and `inspect` can say who made which.
 */
export declare function withCalls<U extends object>(update: U, records: ModelCallRecord[]): U & {
    calls?: ModelCallRecord[];
    usage?: Usage;
};
/** Two updates' calls and usage together (e.g. a node's embedding requests beside its model call). */
export declare function joinCalls(update: SqlStateUpdate, extra: {
    calls?: ModelCallRecord[];
    usage?: Usage;
}): SqlStateUpdate;
/**
 * The step every SQL-writing node shares: ask a role, take the SQL out of its reply, and on an unusable reply keep
 * the previous SQL and say why. `extra` joins the update either way (e.g. a round counter, a method's own field).
 */
export declare function writeSqlStep<Extra extends object = object>(models: ModelProvider, role: string, prompt: ChatInput[], node: string, state: Pick<SqlStateValue, "sql">, extra?: Extra): Promise<SqlStateUpdate & Extra>;
export { DEFAULTS } from "./defaults.ts";
