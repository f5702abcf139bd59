import { type BaseCheckpointSaver } from "@langchain/langgraph";
import type { AnyNodeFactory, GraphOptions, NodeDeps } from "../nodes/types.ts";
import type { GraphInfo, SlotContract } from "./manifests/manifest.ts";
import type { OutcomeSpec } from "./outcome.ts";
export type { GraphInfo };
/**
 * Tasks of one step run at once at most: each running branch (Memo-SQL's nine critics, a baseline's 20 samples,
 * TS-SQL's coders) listens on its run's abort signal, and past Node's 10 listeners a leak warning is printed. Bound to
 * every graph rather than raising Node's limit for the whole host process (a library never changes its host); model
 * requests are capped at 8 in flight by default anyway (`--max-requests`).
 */
export declare const MAX_PARALLEL_TASKS = 8;
export interface BuildOptions<F extends SlotFactories = SlotFactories> extends GraphOptions {
    checkpointer?: BaseCheckpointSaver;
    /**
     * Replacement node factories by slot name: the "swap a node for a new strategy" hook. Typed per slot (a
     * replacement takes the state its slot is given), and checked when the graph is built: an unknown slot is an error
     * naming the graph's slots.
     */
    slots?: {
        [K in keyof F]?: F[K];
    };
    /** The launcher's working directory: relative file options (a guideline, ...) resolve against it. */
    cwd?: string;
}
/** A graph's slot table: slot name → the factory of its default node. */
export type SlotFactories = Record<string, AnyNodeFactory>;
/** A slot as a spec holds it: its summary and contract (from the manifest) and its default factory. */
export interface SlotSpec<F extends AnyNodeFactory = AnyNodeFactory> extends SlotContract {
    summary: string;
    factory: F;
}
/**
 * A graph as the registry (`graphs/registry.ts`) lists it: its manifest (`graphs/manifests/`, which imports no
 * LangGraph, LangChain or node code) and how to load its spec, so the launcher describes graphs and checks flags
 * before anything slow loads.
 */
export interface GraphManifest extends GraphInfo {
    /** The spec module (LangGraph, the nodes) imported on demand. */
    load(): Promise<GraphSpec>;
}
/** The state schema a graph is built over (a LangGraph `StateSchema`): its `fields` are the keys a node may write. */
export interface GraphState {
    fields: Record<string, unknown>;
}
/** What the launcher, langgraph.json and tests know about a graph. */
export interface GraphSpec<F extends SlotFactories = SlotFactories> extends GraphInfo {
    slots: {
        [K in keyof F]: SlotSpec<F[K]>;
    } & Record<string, SlotSpec>;
    /** The graph's state: every slot's declared `writes` are among its fields (checked when the spec is made). */
    state: GraphState;
    /** What a question went through, beyond the shared fields (`graphs/outcome.ts`): results.jsonl's `outcome`. */
    outcome?: OutcomeSpec;
    /**
     * Checks a run's inputs against the questions it will answer, before any runs (eval): returns what the report
     * records about them, or throws a UserError to refuse (memo-sql: a memory holding evaluated questions).
     */
    preflight?(run: RunPreflight): Record<string, unknown>;
    /**
     * LangGraph's recursion limit for a thread under these options: the most supersteps its declared loop bounds allow
     * (`steps`), plus a margin. `build` binds it to the compiled graph (`withConfig`), so every caller — the launcher,
     * a script, Studio, a LangGraph server — runs under it.
     */
    recursionLimit(options?: GraphOptions): number;
    /**
     * The compiled graph, its recursion limit bound. Throws, naming the graph, for a replacement of a slot it does not
     * have. The compiled graph's exact type varies per method; callers use invoke/stream/getState/getStateHistory.
     */
    build(deps: NodeDeps, options?: BuildOptions<F>): any;
}
/** The factory type of one slot of a graph, e.g. `SlotFactory<typeof tsSqlSpec, "vote">`: what a replacement must be. */
export type SlotFactory<G, K extends string> = G extends GraphSpec<infer F> ? (K extends keyof F ? F[K] : never) : never;
/** What `GraphSpec.preflight` sees of a run. */
export interface RunPreflight {
    questions: {
        id: string;
        dbId: string;
        question: string;
        goldSql?: string | undefined;
    }[];
    /** The benchmark folder (a layout's, or own data's databases folder). */
    bench: string;
    split: string;
    /** The question file, when not the layout's own (`--questions`). */
    questionsFile?: string;
    /** The graph's declared option values (camelCase), as `build` gets them. */
    options: Record<string, unknown>;
    cwd: string;
}
/** What a graph's builder is handed: `node(slot)` gives the slot's node (the replacement, or the default), checked. */
export type SlotNodeOf = (slot: string, extraOptions?: Record<string, unknown>) => any;
/**
 * A graph's spec from its manifest (the one description) plus a factory per slot and the builder: a slot without a
 * factory, or a factory without a slot, does not compile. The builder wires `node(slot)` for each slot and compiles;
 * the kit checks replacements, binds the recursion limit and names the graph.
 */
export declare function defineSpec<M extends GraphInfo, F extends {
    [K in keyof M["slots"]]: AnyNodeFactory;
}>(manifest: M, impl: {
    state: GraphState;
    factories: F;
    build(deps: NodeDeps, options: BuildOptions<F>, node: SlotNodeOf): any;
    outcome?: OutcomeSpec;
    preflight?: GraphSpec["preflight"];
    /** The most supersteps one thread can take under these options (every loop at its bound). */
    steps(options: GraphOptions): number;
}): GraphSpec<F>;
/** Every slot's declared writes are fields of the graph's state; LangGraph would drop any other key in silence. */
export declare function checkDeclaredWrites(graph: string, slots: Record<string, SlotContract>, state: GraphState): void;
/**
 * The node for a slot: the user's replacement if one was given, else the graph's default; either held to the slot's
 * contract (`checkedNode`).
 */
export declare function nodeForSlot(spec: Pick<GraphSpec, "name" | "slots" | "state">, slot: string, deps: NodeDeps, options: BuildOptions): AnyNode;
type AnyNode = (state: unknown, config?: unknown) => Promise<unknown>;
/**
 * A replacement node held to its slot's contract (`SlotContract`, declared in the manifests): a Command where the slot
 * routes, the keys its routes read. A node that breaks it throws one line naming the slot and what it must return, so
 * the question fails visibly instead of ending quietly with no SQL.
 */
export declare function checkedNode(graph: string, slot: string, contract: SlotContract, node: AnyNode, options?: Record<string, unknown>, stateFields?: ReadonlySet<string>): AnyNode;
/** Rejects replacement slots the graph does not have, naming the ones it has. */
export declare function checkSlots(spec: Pick<GraphInfo, "name" | "slots">, slots: Record<string, unknown> | undefined): void;
