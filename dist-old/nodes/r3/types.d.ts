import type { NodeFactory } from "../types.ts";
import type { R3StateUpdate, R3StateValue } from "../../state/r3.ts";
import type { Command } from "@langchain/langgraph";
/** A node over R³'s state (the shared fields and R³'s own): an update, or a Command where a replacement routes. */
export type R3NodeFactory = NodeFactory<R3StateValue, R3StateUpdate | Command>;
