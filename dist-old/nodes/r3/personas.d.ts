import type { Persona } from "../../state/r3.ts";
import type { R3NodeFactory } from "./types.ts";
/** Fills a panel of n from the model's proposals, then standby reviewers (numbered when they repeat). */
export declare function panelOf(proposed: Persona[], n: number): Persona[];
/**
 * Slot `persona` (role "persona"): n reviewer professions suited to the schema and the SQL, as validated JSON, once
 * per question. Each proposal is judged on its own: the distinct, well-formed ones are kept, and when fewer than n
 * remain the model is asked once more for the missing ones only (told which professions are taken). Out: personas
 * (always n: standby reviewers fill what is still missing, and attempts say so), personasStandby (how many did),
 * personasDropped (proposals left out).
 */
export declare const personasNode: R3NodeFactory;
