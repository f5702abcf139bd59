import { UserError } from "../shared/command.js";
import { parseFlags } from "../shared/flags.js";
import { intFlag } from "../../runner/run-options.js";
import { findManifest } from "../../graphs/registry.js";
import { outcomeOf } from "../../graphs/outcome.js";
import { formatTable } from "../../tools/format.js";
import { formatUsage } from "../../runner/progress.js";
import { EXIT } from "../../core/exit.js";
// The checkpoint store (SQLite, LangGraph) loads when a command runs, not for its --help.
const checkpointStore = () => import("../../storage/checkpoints.js");
export const threadsCommand = {
    name: "threads",
    usage: "Usage: sqlmend threads [--prefix TEXT] [--limit N] [--checkpoints FILE] [--json]",
    async run(argv, io) {
        const { values } = parseFlags(argv, {
            prefix: { type: "string" },
            limit: { type: "string" },
            checkpoints: { type: "string" },
            json: { type: "boolean" },
        });
        const { listThreads, openReadyCheckpointer } = await checkpointStore();
        const store = await openReadyCheckpointer(values.checkpoints, io.env, io.cwd, { mustExist: true });
        try {
            if (!store.db && !store.postgres)
                throw new UserError("an in-memory store holds no threads between runs");
            const threads = await listThreads(store, intFlag(values, "limit", 1) ?? 50, values.prefix);
            if (values.json)
                io.stdout(`${JSON.stringify(threads, null, 2)}\n`);
            else if (!threads.length)
                io.stdout(`no threads in ${store.location}\n`);
            else {
                for (const t of threads) {
                    const question = (t.question ?? "").replace(/\s+/g, " ");
                    io.stdout(`${t.threadId}  ${t.graph ?? "?"}  ${t.checkpoints} checkpoints  ${t.updatedAt ?? ""}  ${question.length > 70 ? `${question.slice(0, 67)}...` : question}\n`);
                }
            }
            return EXIT.ok;
        }
        finally {
            store.close();
        }
    },
};
/** Deps that refuse to be used: inspecting reads checkpoints and never runs a node. */
const inertDeps = {
    models: {
        forRole() {
            throw new Error("inspect runs no model");
        },
        limiter: undefined,
        structuredMethodCache: new Map(),
        describe: () => ({}),
    },
    executor: {
        run() {
            throw new Error("inspect runs no SQL");
        },
        close: async () => { },
    },
};
const summarizeValue = (value) => {
    if (typeof value === "string")
        return value.length > 160 ? `${JSON.stringify(value.slice(0, 157))}... (${value.length} chars)` : JSON.stringify(value);
    const text = JSON.stringify(value);
    return text && text.length > 160 ? `${text.slice(0, 157)}...` : String(text);
};
export const inspectCommand = {
    name: "inspect",
    usage: `Usage: sqlmend inspect THREAD [--step N] [--json] [--checkpoints FILE] [--graph NAME]

  without --step   the final state and one line per step (which node ran, what it changed, its model calls)
  --step N         step N in full: every field the node wrote and each model call's prompt and reply
  --graph NAME     the graph that ran the thread, when its state does not say (threads started outside the launcher)`,
    async run(argv, io) {
        const { values, positionals } = parseFlags(argv, {
            step: { type: "string" },
            json: { type: "boolean" },
            checkpoints: { type: "string" },
            graph: { type: "string" },
        });
        const threadId = positionals[0];
        if (!threadId)
            throw new UserError("name a thread (see 'sqlmend threads')");
        const wantedStep = intFlag(values, "step", 1);
        const { describeThread, openReadyCheckpointer } = await checkpointStore();
        const store = await openReadyCheckpointer(values.checkpoints, io.env, io.cwd, { mustExist: true });
        try {
            const about = await describeThread(store.saver, threadId);
            if (!about)
                throw new UserError(`no thread '${threadId}' in ${store.location}`);
            const graphName = values.graph ?? about.graph;
            if (!graphName)
                throw new UserError(`thread '${threadId}' does not say which graph ran it: pass --graph NAME`);
            const manifest = findManifest(graphName);
            if (!manifest)
                throw new UserError(`thread '${threadId}' was run by graph '${graphName}', which this version does not have`);
            const spec = await manifest.load();
            const graph = spec.build(inertDeps, { checkpointer: store.saver });
            const config = { configurable: { thread_id: threadId } };
            const snapshots = [];
            for await (const s of graph.getStateHistory(config))
                snapshots.push(s);
            snapshots.reverse();
            const steps = [];
            for (let i = 0; i < snapshots.length; i++) {
                const s = snapshots[i];
                const stepNo = Number(s.metadata?.step ?? i - 1);
                const ran = stepNo >= 1 ? snapshots[i - 1]?.tasks ?? [] : [];
                if (stepNo < 1)
                    continue;
                const updates = {};
                const calls = [];
                // Parallel tasks of one node (a Send fan-out) are told apart as review#1, review#2, ...
                const sameName = (name) => ran.filter((t) => t.name === name).length;
                const seen = new Map();
                for (const task of ran) {
                    const result = (task.result ?? {});
                    const { calls: taskCalls, usage: _usage, ...rest } = result;
                    const nth = (seen.get(task.name) ?? 0) + 1;
                    seen.set(task.name, nth);
                    updates[sameName(task.name) > 1 ? `${task.name}#${nth}` : task.name] = rest;
                    if (Array.isArray(taskCalls))
                        calls.push(...taskCalls);
                }
                steps.push({ step: stepNo, nodes: ran.map((t) => t.name), updates, calls, next: s.next, createdAt: s.createdAt });
            }
            const final = snapshots.at(-1);
            if (wantedStep !== undefined) {
                const step = steps.find((s) => s.step === wantedStep);
                if (!step)
                    throw new UserError(`thread '${threadId}' has steps 1 to ${steps.length}; no step ${wantedStep}`);
                if (values.json)
                    io.stdout(`${JSON.stringify(step, null, 2)}\n`);
                else
                    io.stdout(renderStep(step));
                return EXIT.ok;
            }
            if (values.json) {
                io.stdout(`${JSON.stringify({ thread: threadId, graph: spec.name, finished: final.next.length === 0, next: final.next, outcome: outcome(spec, final), state: final.values, steps: steps.map(({ calls, ...s }) => ({ ...s, calls: calls.map(({ messages, ...c }) => ({ ...c, promptMessages: messages.length })) })) }, null, 2)}\n`);
                return EXIT.ok;
            }
            io.stdout(renderOverview(threadId, spec.name, final, steps, outcome(spec, final)));
            return EXIT.ok;
        }
        finally {
            store.close();
        }
    },
};
const executionSummary = (value) => {
    const e = value;
    if (!e)
        return "execution=null";
    return e.ok ? `execution=ok, ${e.preview?.rowCount ?? 0} rows` : `execution=${e.errorKind} error: ${e.error}`;
};
/** What the link node found, in one line: counts, how it ranked, and why it fell back. */
const linkingSummary = (value) => {
    const l = value;
    if (!l)
        return "linking=null";
    const shown = (l.values ?? []).slice(0, 3).map((v) => `'${v.value}'`).join(", ");
    return `linking=${l.keywords?.length ?? 0} keywords, ${l.columns?.length ?? 0} columns, ${l.values?.length ?? 0} values${shown ? ` (${shown}${(l.values?.length ?? 0) > 3 ? ", ..." : ""})` : ""}, ranked ${l.ranking === "embeddings" ? "by embeddings" : "lexically"}${l.note ? ` (${l.note})` : ""}`;
};
/** The attempt history repeats what the overview shows, except the notes saying why a node kept its SQL. */
const attemptNotes = (value) => (Array.isArray(value) ? value : [])
    .map((a) => a.note)
    .filter(Boolean)
    .map((note) => `note: ${note}`)
    .join("; ");
/** The thread's outcome as results.jsonl records it, once it has finished. */
const outcome = (spec, final) => (final.next.length ? undefined : outcomeOf(spec, final.values));
function renderOverview(threadId, graph, final, steps, outcome) {
    const v = final.values;
    const out = [];
    out.push(`Thread ${threadId} (graph ${graph}) — ${final.next.length ? `unfinished, next: ${final.next.join(", ")}` : "finished"}`);
    out.push(`Question: ${v.question}`);
    if (v.evidence)
        out.push(`Evidence: ${v.evidence}`);
    out.push(`Database: ${v.dbPath}`, "", `SQL:\n${v.sql || "(none)"}`, "");
    if (v.execution?.ok && v.execution.preview)
        out.push(formatTable(v.execution.preview));
    else if (v.execution)
        out.push(`Execution: ${v.execution.errorKind}: ${v.execution.error}`);
    if (v.usage)
        out.push("", `Tokens: ${formatUsage(v.usage)}`);
    if (outcome)
        out.push(`Outcome: ${Object.entries(outcome).map(([key, value]) => `${key} ${value}`).join(", ")}`);
    out.push("", "Steps (sqlmend inspect THREAD --step N for prompts and replies):");
    for (const step of steps) {
        const changed = Object.entries(step.updates)
            .flatMap(([, update]) => Object.entries(update).map(([key, value]) => (key === "attempts" ? ("execution" in update ? "" : attemptNotes(value)) : key === "execution" ? executionSummary(value) : key === "linking" ? linkingSummary(value) : `${key}=${summarizeValue(value)}`)))
            .filter(Boolean)
            .join("; ");
        const calls = step.calls.length ? `  [${step.calls.length} model call${step.calls.length > 1 ? "s" : ""}: ${step.calls.map((c) => `${c.role} ${c.inputTokens}/${c.outputTokens} tok${c.cached ? " (cached)" : ""}${c.error ? ` (${c.error})` : ""}`).join(", ")}]` : "";
        out.push(`  ${String(step.step).padStart(3)}  ${nodeList(step.nodes).padEnd(10)} ${changed || "(no change)"}${calls}`);
    }
    return `${out.join("\n")}\n`;
}
/** "review ×3" for a node that ran as several parallel tasks in the step. */
function nodeList(nodes) {
    const counts = new Map();
    for (const node of nodes)
        counts.set(node, (counts.get(node) ?? 0) + 1);
    return [...counts].map(([node, n]) => (n > 1 ? `${node} ×${n}` : node)).join(", ");
}
function renderStep(step) {
    const out = [`Step ${step.step}: ${nodeList(step.nodes)}${step.next.length ? ` → next: ${step.next.join(", ")}` : " → end"}`, ""];
    for (const [node, update] of Object.entries(step.updates)) {
        out.push(`${node} wrote:`);
        for (const [key, value] of Object.entries(update))
            out.push(`  ${key}: ${typeof value === "string" ? value : JSON.stringify(value, null, 2).replace(/\n/g, "\n  ")}`);
        out.push("");
    }
    step.calls.forEach((call, i) => {
        out.push(`Model call ${i + 1}: role ${call.role}${call.node ? ` (node ${call.node})` : ""}, model ${call.model}, ${call.inputTokens} in / ${call.outputTokens} out, ${Math.round(call.latencyMs)} ms${call.method ? `, ${call.method}` : ""}${call.cached ? `, served by the response cache (saved ${call.savedInputTokens ?? 0} in / ${call.savedOutputTokens ?? 0} out)` : ""}${call.error ? `, error: ${call.error}` : ""}`);
        for (const m of call.messages)
            out.push(`--- ${m.role} ---`, m.content);
        out.push("--- reply ---", call.reply || "(empty)", "");
    });
    return `${out.join("\n")}\n`;
}
