import type { Command } from "@langchain/langgraph";
import type { NodeFactory } from "../types.ts";
import type { MagicFeedbackUpdate, MagicFeedbackValue } from "../../state/magic.ts";
/**
 * The agents of MAGIC's feedback-correction cycle (§3.1), one node each. Who is shown what (§3.2): the feedback
 * agent sees the question, evidence, gold SQL and the incorrect SQL(s); the correction agent sees the schema,
 * question, evidence, s' and the feedback, never the gold SQL or its result; the manager sees everything.
 */
export type CycleNode = NodeFactory<MagicFeedbackValue, MagicFeedbackUpdate | Command>;
export declare const NEEDS_GOLD = "magic-feedback needs the question's gold SQL (goldSql) and incorrect SQL (incorrectSql): run it through 'sqlmend magic guideline'";
/**
 * Slot `feedback` (role "feedback", Figure 5). In: question, evidence, goldSql, incorrectSql, iterations,
 * feedbackInstructions. Out: feedback. A feedback that writes out the gold SQL is refused and asked again
 * (`maxLeakRetries` times), then the gold SQL is redacted from it: the correction agent must not receive it.
 */
export declare const feedbackNode: CycleNode;
/**
 * Slot `correct` (role "corrector", Figure 6). In: schemaText, question, evidence, incorrectSql (always s', §3.2),
 * feedback, correctionInstructions. Out: sql (the revision), correctionReply. An unusable reply keeps the SQL.
 */
export declare const correctNode: CycleNode;
/**
 * Slot `manager` (role "manager", no model call): executes the revision and judges it against the gold SQL with the
 * shared scorer, under the benchmark's semantics. Out: rounds + 1, corrected, the iteration's record.
 */
export declare const managerJudgeNode: CycleNode;
/**
 * Why a manager's reply cannot serve as an agent's instructions, or undefined when it can: empty, a refusal, a chat
 * reply ("OK.", "I am not sure what you mean."), a SQL query with at most a chat line around it, no words, or words
 * that instruct no one (no "you", no command). Taking such a reply would replace a working prompt with nothing.
 */
export declare function unusableInstructionsWhy(text: string): string | undefined;
/**
 * Slot `reviseFeedback` (role "manager", Figure 7): new feedback instructions from the last unhelpful feedback, the
 * manager shown what the paper lists (§3.1): the agent's last output and prompt (instructions and data block: the
 * question, evidence, s^gt, s'). An unusable reply is asked again (`maxUnusableRetries`), then the old ones are kept.
 */
export declare const reviseFeedbackNode: CycleNode;
/**
 * Slot `reviseCorrection` (role "manager", Figure 8): new correction instructions from the last unhelpful correction,
 * the manager shown the agent's last reply and prompt (instructions and data block: question, evidence, s', the
 * feedback it had to apply) and the gold SQL as the ideal output. Instructions that give the gold SQL away (a near
 * copy counts, `leaks.ts`) or a row of its result are refused and redone (`maxLeakRetries` times), unusable ones
 * (`maxUnusableRetries` times); then the previous instructions are kept.
 */
export declare const reviseCorrectionNode: CycleNode;
/**
 * No-manager ablation, slot `check` (no model call): executes the revision and records the scorer's verdict for the
 * statistics (Figure 3, Table 4). Nothing routes on that verdict: the feedback agent decides when to stop.
 */
export declare const checkNode: CycleNode;
/**
 * No-manager ablation, slot `judge` (role "feedback"). Without the manager, "the feedback agent controls the maximum
 * iteration count and utilizes the SQL executor tool to compare the execution results of the revised SQL with the
 * ground truth SQL" (§4, RQ3): it is shown the question, the gold SQL and revision, and both results, and decides
 * itself (no scorer check routes the cycle). Its verdict goes nowhere else: the correction agent never sees it.
 * Out: judgedCorrect. An unusable reply counts as "not correct", so the cycle goes on (bounded by maxIter).
 */
export declare const judgeNode: CycleNode;
