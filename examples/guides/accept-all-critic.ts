// Memo-SQL without its critic (an ablation): every candidate is final at once and goes to the vote.
// Run it: sqlmend eval memo-sql --node critic=./accept-all-critic.ts --bench minibench --out runs/memo-no-critic
import { Command } from "@langchain/langgraph";
import { type memoSqlSpec, type SlotFactory } from "sqlmend";

// The slot's own factory type: the critic is run by a Send fan-out and given its branch's payload
// ({ ctx, candidate, round }), not the graph's state, and it must route with a Command (to refine or to vote).
const acceptAll: SlotFactory<typeof memoSqlSpec, "critic"> = () => async ({ candidate }) =>
  new Command({
    update: { candidates: [{ ...candidate, meta: { ...candidate.meta, final: true, accepted: true, note: "accepted without a critic" } }] },
    goto: "vote",
  });

export default acceptAll;
