import type { Execution } from "../state/sql-state.ts";
/** Something a vote counts: an id, its SQL and how that SQL ran. */
export interface Ballot {
    id: string;
    sql: string;
    execution?: Execution | null;
}
/**
 * Why a ballot cannot vote (no SQL, an execution error, a result too large to fingerprint), or null when it can. Votes
 * compare results by their fingerprint (`Execution.fingerprint`): only executed SQL with a fingerprint takes part.
 */
export declare function notVoting(ballot: Ballot): string | null;
/** The ballots that vote, in order, and those that cannot, each with why (`notVoting`): a vote says what it left out. */
export declare function splitBallots<B extends Ballot>(ballots: B[]): {
    pool: B[];
    excluded: {
        id: string;
        reason: string;
    }[];
};
/**
 * Ballots grouped by equal results (fingerprints), biggest group first; groups of equal size stay in the order of
 * their first member (Map keeps first appearance and sort is stable). Every ballot must vote (`notVoting` is null).
 */
export declare function resultGroups<B extends Ballot>(ballots: B[]): {
    fingerprint: string;
    members: B[];
}[];
