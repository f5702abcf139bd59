/**
 * Why a ballot cannot vote (no SQL, an execution error, a result too large to fingerprint), or null when it can. Votes
 * compare results by their fingerprint (`Execution.fingerprint`): only executed SQL with a fingerprint takes part.
 */
export function notVoting(ballot) {
    if (!ballot.sql.trim())
        return "no SQL";
    if (!ballot.execution?.ok || !ballot.execution.fingerprint)
        return `execution error: ${ballot.execution?.error ?? "not executed"}`;
    return null;
}
/** The ballots that vote, in order, and those that cannot, each with why (`notVoting`): a vote says what it left out. */
export function splitBallots(ballots) {
    const pool = [];
    const excluded = [];
    for (const ballot of ballots) {
        const reason = notVoting(ballot);
        if (reason)
            excluded.push({ id: ballot.id, reason });
        else
            pool.push(ballot);
    }
    return { pool, excluded };
}
/**
 * Ballots grouped by equal results (fingerprints), biggest group first; groups of equal size stay in the order of
 * their first member (Map keeps first appearance and sort is stable). Every ballot must vote (`notVoting` is null).
 */
export function resultGroups(ballots) {
    const groups = new Map();
    for (const b of ballots)
        groups.set(b.execution.fingerprint, [...(groups.get(b.execution.fingerprint) ?? []), b]);
    return [...groups.entries()].sort((a, b) => b[1].length - a[1].length).map(([fingerprint, members]) => ({ fingerprint, members }));
}
