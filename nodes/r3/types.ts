import type { GraphOptions, NodeDeps, NodeFactory } from "../types.ts";
import type { R3StateUpdate, R3StateValue } from "../../state/r3.ts";

/** A node over R³'s state (the shared fields and R³'s own). */
export type R3NodeFactory = (deps: NodeDeps, options: GraphOptions) => (state: R3StateValue) => Promise<R3StateUpdate>;

/**
 * As a slot: slots hold NodeFactory (over the shared state); R³'s graph only ever hands its nodes R³'s state, and a
 * user's replacement for an R³ slot receives that same state.
 */
export const asSlot = (factory: R3NodeFactory): NodeFactory => factory as unknown as NodeFactory;
