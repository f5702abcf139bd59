import { getConfig } from "@langchain/langgraph";
import { addUsage, usageOfCalls } from "../state/usage.js";
import { callModel } from "../tools/models/llm.js";
import { extractSql } from "../tools/reply.js";
/**
 * A model node's update: its own fields plus the records of its calls and their usage (the node contract). Each
 * record is stamped with the graph step and node that made it, so parallel nodes' calls of one step stay together
 * in `calls` and `inspect` can say who made which.
 */
export function withCalls(update, records) {
    if (!records.length)
        return update;
    const where = currentStep();
    const stamped = records.map((record) => ({ ...where, ...record }));
    return { ...update, calls: stamped, usage: usageOfCalls(stamped) };
}
/** Two updates' calls and usage together (e.g. a node's embedding requests beside its model call). */
export function joinCalls(update, extra) {
    if (!extra.calls?.length)
        return update;
    return {
        ...update,
        calls: [...extra.calls, ...(update.calls ?? [])],
        usage: update.usage ? addUsage(update.usage, extra.usage ?? usageOfCalls(extra.calls)) : (extra.usage ?? usageOfCalls(extra.calls)),
    };
}
/** The running graph's step and node, when called inside a node (LangGraph keeps its config in AsyncLocalStorage). */
function currentStep() {
    try {
        const metadata = getConfig()?.metadata;
        return {
            ...(typeof metadata?.langgraph_step === "number" ? { step: metadata.langgraph_step } : {}),
            ...(typeof metadata?.langgraph_node === "string" ? { node: metadata.langgraph_node } : {}),
        };
    }
    catch {
        return {};
    }
}
/**
 * The step every SQL-writing node shares: ask a role, take the SQL out of its reply, and on an unusable reply keep
 * the previous SQL and say why. `extra` joins the update either way (e.g. a round counter, a method's own field).
 */
export async function writeSqlStep(models, role, prompt, node, state, extra = {}) {
    const call = await callModel(models, role, prompt);
    const sql = call.ok ? extractSql(call.text) : null;
    if (!sql) {
        const why = call.record.error ?? "reply holds no SQL";
        call.record.error = why;
        return withCalls({ ...extra, attempts: [{ node, sql: state.sql, ok: false, note: `${why}; kept the previous SQL` }] }, [call.record]);
    }
    return withCalls({ ...extra, sql, attempts: [{ node, sql, ok: true }] }, [call.record]);
}
export { DEFAULTS } from "./defaults.js";
