import { MAX_SUB_QUESTIONS, MEMO_REFINE_OPTIONS, MEMO_SQL_OPTIONS } from "../../nodes/memo/options.js";
import { STRATEGIES, STYLES } from "../../state/memo-names.js";
import { readOptions } from "../../core/options.js";
import { defineManifest } from "./manifest.js";
import { SHARED_SLOT_INFO as SHARED, STRUCTURED_CALLS } from "./shared.js";
/**
 * The correction module's calls for `candidates` candidates: each goes critic (a structured ask) ↔ refine (1) until
 * the critic accepts or `refineRounds` refinements were made (the last refinement goes to the vote uncriticised):
 * at most refineRounds × (critic + refine) per candidate. Identical SQL with the same result is criticised (and the
 * same verdict acted on) once per question, so the fewest is one critic call for candidates that all agree.
 */
const correctionCalls = (candidates, refineRounds) => ({ min: 1, max: candidates * refineRounds * (STRUCTURED_CALLS.max + 1) });
const candidatesIn = (value) => (Array.isArray(value) ? value : []);
const isFinal = (c) => c.meta?.final === true;
/**
 * The vote waits until every candidate is final, so a candidate handed to it unmarked would keep it waiting and end
 * the question quietly with no SQL: whatever routes to the vote hands its candidates over final.
 */
const HANDS_OVER_FINAL = {
    must: "mark the candidates it routes to vote final (meta: { final: true }), or the vote waits for them forever",
    broken: ({ update, goto }) => {
        if (!goto.includes("vote"))
            return undefined;
        const candidates = candidatesIn(update.candidates);
        if (!candidates.length)
            return "got no candidates in its update";
        const open = candidates.filter((c) => !isFinal(c)).map((c) => `'${String(c.id)}'`);
        return open.length ? `got ${open.join(", ")} not final` : undefined;
    },
};
/** The vote gate decides once nothing is pending: waiting then would end the question with no answer. */
const DECIDES_WHEN_ALL_FINAL = {
    must: "route to __end__ once every candidate is final (goto: [] only while some are pending)",
    broken: ({ goto }, state) => {
        const candidates = candidatesIn(state.candidates);
        if (!candidates.length || !candidates.every(isFinal) || goto.includes("__end__"))
            return undefined;
        return `got ${goto.length ? `a route to ${goto.join(", ")}` : "no route"} with every candidate final (${candidates.length})`;
    },
};
/** What a Memo-SQL branch reads of its payload: the question's context (`MemoContext`) and its own part. */
const CANDIDATE_READS = ["ctx", "candidate", "round"];
/** Memo-SQL's own slots (their nodes take a branch payload and return a Command: see ARCHITECTURE.md). */
const CORRECTION_SLOTS = {
    critic: {
        summary: "memory-guided verdict on a candidate: wrong?, error types, suggestions",
        role: "critic",
        payload: "CandidatePayload",
        reads: CANDIDATE_READS,
        writes: ["candidates"],
        returns: "Command",
        routesTo: ["refine", "vote"],
        rules: [HANDS_OVER_FINAL],
    },
    refine: {
        summary: "rewrite a candidate per the critic's verdict, and execute it",
        role: "refiner",
        payload: "CandidatePayload",
        reads: [...CANDIDATE_READS, "verdict"],
        writes: ["candidates", "rounds"],
        returns: "Command",
        routesTo: ["critic", "vote"],
        rules: [HANDS_OVER_FINAL],
    },
};
/** memo-sql's and memo-refine's vote: a gate, so it routes even while it waits. */
const VOTE_CONTRACT = {
    reads: ["candidates"],
    writes: ["sql", "execution", "memoVote"],
    returns: "Command",
    routesTo: ["__end__", "nowhere (goto: []) while candidates are pending"],
    rules: [DECIDES_WHEN_ALL_FINAL],
};
const MEMO_STATE = { value: "MemoStateValue", update: "MemoStateUpdate" };
/** What `contextOf` reads of the state for a branch's payload (`MemoContext`). */
const CONTEXT_READS = ["questionId", "dbId", "question", "evidence", "dbPath", "schemaText"];
/** What a path's sub-question steps read of their payload (`PathPayload`). */
const PATH_READS = ["ctx", "strategy", "plan", "index", "steps"];
export const memoSqlManifest = defineManifest({
    name: "memo-sql",
    summary: "Memo-SQL: 3 decompositions × ReAct+Reflect × 3 SQL styles, memory-guided critic↔refiner, majority vote",
    kind: "generator",
    stateType: MEMO_STATE,
    options: MEMO_SQL_OPTIONS,
    needsExamples: (values) => {
        const o = readOptions(MEMO_SQL_OPTIONS, values);
        return !o.noIcl && o.exemplars > 0 ? `memo-sql: ${o.exemplars} exemplars per style (--no-icl to go without)` : undefined;
    },
    slots: {
        link: SHARED.link,
        schema: SHARED.schema,
        decompose: {
            summary: "one decomposition per paradigm, or the fallback; then the path's first step",
            role: "decomposer",
            payload: "DecomposePayload",
            reads: ["ctx", "strategy"],
            writes: ["memoPlans"],
            returns: "Command",
            routesTo: ["paths"],
        },
        paths: {
            summary: "gate: wait for every plan; identical plans are solved once, their candidates shared",
            reads: ["memoPlans", ...CONTEXT_READS, "linking"],
            writes: ["memoPlans"],
            returns: "Command",
            routesTo: ["act", "write", "nowhere (goto: []) while plans are pending"],
        },
        act: {
            summary: "reason → sub-SQL → execute for one sub-question",
            role: "solver",
            payload: "PathPayload",
            reads: PATH_READS,
            writes: ["memoSteps"],
            returns: "Command",
            routesTo: ["act", "reflect", "write"],
        },
        reflect: {
            summary: "check the current sub-SQL against the earlier steps",
            role: "reflector",
            payload: "PathPayload",
            reads: PATH_READS,
            writes: ["memoSteps"],
            returns: "Command",
            routesTo: ["act", "revise", "write"],
        },
        revise: {
            summary: "rewrite a sub-SQL once after a reflection found a problem",
            role: "solver",
            payload: "PathPayload",
            reads: PATH_READS,
            writes: ["memoSteps"],
            returns: "Command",
            routesTo: ["act", "write"],
        },
        write: {
            summary: "final SQL of a path in one style, with retrieved exemplars, executed: one candidate",
            role: "writer",
            payload: "WritePayload",
            reads: ["ctx", "strategy", "steps", "style", "order", "plan"],
            writes: ["candidates"],
            returns: "Command",
            routesTo: ["collect"],
        },
        collect: {
            summary: "gate: wait for every candidate, then one critic each",
            reads: ["candidates", ...CONTEXT_READS, "linking"],
            writes: ["candidates"],
            returns: "Command",
            routesTo: ["critic", "vote", "nowhere (goto: []) while candidates are pending"],
            rules: [HANDS_OVER_FINAL],
        },
        ...CORRECTION_SLOTS,
        vote: { summary: "gate: wait for every candidate to be final, then majority vote over results", ...VOTE_CONTRACT },
    },
    // link (a structured ask, unless --no-linking) → per path (3): decompose (a structured ask; a paradigm that does not
    // fit asks again for a free one) → per distinct plan (1 when all three paths plan the same, else up to 3), per
    // sub-question (1 to MAX_SUB_QUESTIONS; one when judged simple): act (1) → reflect (a structured ask) → revise (1,
    // when reflect found a problem) → per style: write (1) → the correction.
    calls: (options) => {
        const o = readOptions(MEMO_SQL_OPTIONS, options);
        const paths = STRATEGIES.length;
        const link = o.noLinking ? { min: 0, max: 0 } : STRUCTURED_CALLS;
        const decompose = { min: STRUCTURED_CALLS.min, max: (o.decomposition === "random" ? 1 : 2) * STRUCTURED_CALLS.max };
        const subQuestion = o.noReact ? { min: 0, max: 0 } : o.noReflect ? { min: 1, max: 1 } : { min: 1 + STRUCTURED_CALLS.min, max: 1 + STRUCTURED_CALLS.max + 1 };
        const writes = paths * o.styles;
        const correction = o.noRefine ? { min: 0, max: 0 } : correctionCalls(writes, o.refineRounds);
        return {
            min: link.min + paths * decompose.min + subQuestion.min + o.styles + correction.min,
            max: link.max + paths * (decompose.max + MAX_SUB_QUESTIONS * subQuestion.max) + writes + correction.max,
        };
    },
});
export const memoRefineManifest = defineManifest({
    name: "memo-refine",
    summary: "corrector: Memo-SQL's memory-guided critic↔refiner loop on the given SQL",
    kind: "corrector",
    stateType: MEMO_STATE,
    options: MEMO_REFINE_OPTIONS,
    slots: {
        link: SHARED.link,
        schema: SHARED.schema,
        seed: {
            summary: "execute the given SQL as the one candidate, or the question's candidates from --candidates",
            reads: ["sql", ...CONTEXT_READS],
            writes: ["candidates", "execution"],
            returns: "Command",
            routesTo: ["critic", "vote"],
            rules: [HANDS_OVER_FINAL],
        },
        ...CORRECTION_SLOTS,
        vote: { summary: "the final candidate (the vote over one)", ...VOTE_CONTRACT },
    },
    // link (a structured ask, unless --no-linking), seed calls nothing; then the correction of the one given SQL, or of the question's candidates in --candidates
    // (counted as memo-sql's paths × styles, the most `sqlmend memo candidates` writes).
    calls: (options) => {
        const o = readOptions(MEMO_REFINE_OPTIONS, options);
        const link = o.noLinking ? { min: 0, max: 0 } : STRUCTURED_CALLS;
        const plus = (c) => ({ min: link.min + c.min, max: link.max + c.max });
        if (!o.candidates)
            return plus(correctionCalls(1, o.refineRounds));
        return { ...plus(correctionCalls(STRATEGIES.length * STYLES.length, o.refineRounds)), note: "with --candidates: up to nine candidates a question (memo-sql's); a file holding more costs more" };
    },
});
