import type { OptionDefs } from "../../core/options.ts";
/**
 * What a node in a slot must return, checked around a replacement node (`--node SLOT=FILE`, `slots` in `build`): a
 * node that breaks it stops its question with an error naming the slot, rather than the graph ending quietly.
 */
export interface SlotContract {
    /**
     * "Command": always a LangGraph `Command` whose `goto` says where the branch goes (`routesTo`; a plain update would
     * end the branch, or the graph). Otherwise a plain partial update, or a `Command`.
     */
    returns?: "Command";
    /** Where a Command may route: node names, "__end__"; `[]` (no route) is named "nowhere". */
    routesTo?: readonly string[];
    /** Keys the update (a Command's `update`) must always hold: what the graph's routes read, e.g. a loop's counter. */
    requires?: readonly string[];
    /**
     * The state fields the default node may write (besides `calls`, `usage`, `attempts`, which any node may): each must
     * be a field of the graph's state (checked when the spec is made), and the default node is held to them at run
     * time. A replacement may write any field its graph's state has; a key the state lacks is an error naming it.
     */
    writes?: readonly string[];
    /** What the node reads: state fields, or, for a slot run by a `Send` fan-out, the payload's fields (`payload`). */
    reads?: readonly string[];
    /** The slot's node is run by a `Send` fan-out and is given this payload (named by its type), not the graph's state. */
    payload?: string;
    /**
     * The agent role its model calls name (`--role-model ROLE=...`), when it calls a model. The default node is held to
     * it at run time (its embedding requests, role `embedder`, aside); a replacement may call any role.
     */
    role?: string;
    /**
     * Options only this slot's default node reads: a run that replaces the slot (`--node`) neither takes nor records
     * them. Graph-wide knobs (loop bounds the wiring reads, fan-out sizes) stay in the graph's `options`.
     */
    options?: OptionDefs;
    /** What a return must also keep to, read with the node's input: a gate's decision, a branch's hand-off to a gate. */
    rules?: readonly SlotRule[];
}
/** A node's return as its slot's rules see it. */
export interface SlotReturn {
    command: boolean;
    /** The update (a Command's `update`); {} when there is none. */
    update: Record<string, unknown>;
    /** Where a Command routes: node names (a Send's node), "__end__"; [] for a plain update or no route. */
    goto: string[];
}
/**
 * A contract rule beyond the return's shape, for what would otherwise end a question quietly (a gate waiting for a
 * branch that never hands its result over): `must` says it in a phrase ("slot 'critic' of graph 'memo-sql' must
 * …"), `broken` tests one return against the node's input (the state, or a Send's payload) and the graph's options.
 */
export interface SlotRule {
    must: string;
    /** What breaks the rule in this return, a phrase ("got 'table:join' not final"); undefined when it holds. */
    broken(returned: SlotReturn, input: Record<string, unknown>, options: Record<string, unknown>): string | undefined;
}
export interface SlotInfo extends SlotContract {
    summary: string;
}
/**
 * Model calls one question costs a graph (`GraphInfo.calls`): `min` when every call is answered and its first reply
 * accepted and every loop ends at its first chance (no execution error, reviewers and critics agree), `max` with every
 * loop, re-ask and fan-out at its bound, `typical` what a well-behaved run does when that differs from neither
 * (omitted where the code alone does not say). Chat-model calls as results.jsonl's `calls` counts them (cached ones
 * included); not counted: embedding requests (made only with an embedding model configured), the extra call per
 * structured-output format a server refuses under `--structured-method auto` (once per role and model a process), a
 * corrector's initial generator (see `expectedCalls` in graphs/calls.ts), and a question whose call got no reply,
 * which may stop earlier (eval counts it failed).
 */
export interface CallBounds {
    min: number;
    max: number;
    typical?: number;
    /** What the figures assume or leave out for this graph, when more than the above (e.g. "per merge"). */
    note?: string;
}
/**
 * What can be known of a graph without building it (so without LangGraph): what `graphs`, `--help`, flag parsing and
 * option validation read. A spec (`GraphSpec`) is one of these plus its node factories and `build`.
 */
export interface GraphInfo {
    name: string;
    summary: string;
    /** A generator writes SQL from a question; a corrector revises the SQL it is given (input field `sql`). */
    kind: "generator" | "corrector";
    /** Slot name → what its node does; every slot is a node of the built graph (a test checks). */
    slots: Record<string, SlotInfo>;
    /**
     * The TypeScript types of the graph's state, as the package exports them (e.g. `TsSqlStateValue`,
     * `TsSqlStateUpdate`): what a replacement node reads and returns. The slot reference (docs/guides/slots.md) names them.
     */
    stateType?: {
        value: string;
        update: string;
    };
    /** The graph's own knobs: the launcher makes flags, help, validation, report settings and the resume check of them. */
    options?: OptionDefs;
    /**
     * Whether a run needs the training split's examples (`deps.examples`), given the graph's own option values as
     * parsed from the flags (absent when not given): the reason (e.g. "--k-shot 5"), or undefined. `eval` then loads
     * the train split, as for `--few-shot`.
     */
    needsExamples?: (options: Record<string, unknown>) => string | undefined;
    /**
     * Model calls per question (`CallBounds`), worked out from the graph's nodes, edges and loop bounds, given the
     * graph's own option values under their camelCase keys (absent = the default, as `needsExamples` gets them) plus
     * the shared knobs the launcher passes to `build` (`maxFixRounds`; `fewShot` adds no chat call). `sqlmend experiment
     * --dry-run` estimates a run's cost from it (`expectedCalls`, graphs/calls.ts); test/call-counts.test.ts holds every
     * graph's measured calls to it.
     */
    calls?: (options: Record<string, unknown>) => CallBounds;
    /**
     * A graph only one command can run meaningfully (it needs inputs eval and ask do not give, e.g. the gold SQL): that
     * command. eval, ask and --initial refuse the graph with one line naming it.
     */
    runBy?: string;
}
/**
 * Every option a run of the graph takes: the graph-wide ones, then those of each slot not replaced, then those a
 * replacement module declares (`extra`). What flags, `--help`, validation, settings and `--resume` derive from.
 */
export declare function optionDefsOf(graph: Pick<GraphInfo, "options" | "slots">, replaced?: Iterable<string>, extra?: OptionDefs): OptionDefs;
/** Keeps a manifest's literal slot names, so `defineSpec` can demand a factory for each and no other. */
export declare const defineManifest: <const M extends GraphInfo>(manifest: M) => M;
