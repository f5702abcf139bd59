/**
 * Scripted MAGIC agents behind the local OpenAI-compatible server: each request is recognised by its prompt (which
 * agent, which question) and answered by a plan, so tests and bench/magic.ts drive the real ChatOpenAI path.
 */
import type { Question } from "../../state/question.ts";
import type { ChatRequestRecord, ScriptedReply } from "./openai-server.ts";

export type Agent = "generator" | "feedback" | "judge" | "corrector" | "reviseFeedback" | "reviseCorrection" | "merge" | "guidelineCorrector" | "other";

const all = (req: ChatRequestRecord) => req.messages.map((m) => m.content).join("\n");

export function agentOf(req: ChatRequestRecord): Agent {
  const text = all(req);
  if (text.includes("You maintain a self-correction guideline")) return "merge";
  if (text.includes("Revise the instructions of this agent")) return text.includes("It corrects an SQL query") ? "reviseCorrection" : "reviseFeedback";
  if (text.includes("Revised SQL:") && text.includes('"correct"')) return "judge";
  if (text.includes("The mistakes of the incorrect SQL are:")) return "feedback";
  if (text.includes("Expert feedback:")) return "corrector";
  if (text.includes("Go through the guideline's questions")) return "guidelineCorrector";
  if (text.includes("Write the SQLite query that answers the question")) return "generator";
  return "other";
}

/** The question a request is about (the first "Question:" line, or "The question it worked on:"). */
export function questionTextOf(req: ChatRequestRecord): string {
  const text = all(req);
  return (/^Question: (.*)$/m.exec(text)?.[1] ?? /The question it worked on: (.*)$/m.exec(text)?.[1] ?? "").trim();
}

export const sqlReply = (sql: string, preface = "Did I use the right filter? Let me check."): ScriptedReply => ({
  content: `${preface}\n\`\`\`sql\n${sql}\n\`\`\``,
});
// No usage given: the server counts tokens from the characters sent and returned (for bench/magic.ts's figures).
const text = (content: string): ScriptedReply => ({ content });

export interface MagicPlan {
  /** The correction agent's call number (1-based, per question) from which it answers with the gold SQL; Infinity: never. */
  correctAt(q: Question): number;
  /** The feedback agent writes the gold SQL out (the cycle must refuse and redact it). */
  leakyFeedback?: boolean;
  /** The initial generator (role generator) answers wrong for these questions. */
  generatorWrong?(q: Question): boolean;
}

/**
 * The merge agent appends one line per new mistake to the guideline so far: "N. reminder: <question>", wrapped as chat
 * models do: a preface, a ```markdown fence with a heading, a sign-off and a training query (8 lines the guideline drops).
 */
function mergeReply(req: ChatRequestRecord): ScriptedReply {
  const prompt = req.messages.at(-1)?.content ?? "";
  const sofar = /Guideline so far:\n([\s\S]*?)\n\nNew mistakes to add/.exec(prompt)?.[1] ?? "";
  const previous = sofar.startsWith("(empty") ? [] : sofar.split("\n").filter((l) => /^\d+\. /.test(l));
  const added = [...prompt.matchAll(/^Mistake \d+\nQuestion: (.*)$/gm)].map((m) => m[1]!);
  const lines = [...previous, ...added.map((q, i) => `${previous.length + i + 1}. reminder: ${q}\n   - Did I check this?`)];
  return text(
    `Sure! Here is the updated guideline:\n\n\`\`\`markdown\n# Self-correction guideline\n\n${lines.join("\n")}\n\`\`\`\n\n` +
      "Let me know if you need anything else.\n\n```sql\nSELECT 'a training query'\n```",
  );
}

export function magicResponder(questions: Question[], plan: MagicPlan) {
  const correctorCalls = new Map<string, number>();
  const feedbackCalls = new Map<string, number>();
  const revisions = new Map<string, number>();
  /** "" the first time, then " (revision k)". */
  const again = (key: string) => {
    const k = (revisions.get(key) ?? 0) + 1;
    revisions.set(key, k);
    return k > 1 ? ` (revision ${k})` : "";
  };
  const byText = new Map(questions.map((q) => [q.question, q]));
  return (req: ChatRequestRecord): ScriptedReply => {
    const agent = agentOf(req);
    const q = byText.get(questionTextOf(req));
    switch (agent) {
      case "merge":
        return mergeReply(req);
      // The manager's revisions differ each time (as revising from a new failure would): the next feedback and
      // correction requests are new ones, not the last reused.
      case "reviseFeedback":
        return text(`Explain each wrong filter and each missing condition precisely.${again(`reviseFeedback ${q?.id}`)}`);
      case "reviseCorrection":
        return text(`Check every filter and join against the feedback before writing the query.${again(`reviseCorrection ${q?.id}`)}`);
      case "judge": {
        // The feedback agent without the manager compares the two results it is shown.
        const prompt = req.messages.at(-1)?.content ?? "";
        const gold = /Result of the correct SQL:\n([\s\S]*?)\n\nRevised SQL:/.exec(prompt)?.[1];
        const revised = /Result of the revised SQL:\n([\s\S]*?)\n\nReply with/.exec(prompt)?.[1];
        return gold !== undefined && gold === revised ? text('{"correct": true, "reason": "same rows"}') : text('{"correct": false, "reason": "still different"}');
      }
      case "feedback": {
        // Feedback of its own each time (its prompt lists the incorrect SQL so far): the corrector is asked anew each
        // iteration, as a temperature-0 model asked the very same request would only repeat itself (callModel reuses it).
        const k = (feedbackCalls.get(q?.id ?? "") ?? 0) + 1;
        feedbackCalls.set(q?.id ?? "", k);
        const said = k > 1 ? `The filter is wrong (look ${k}).` : "The filter is wrong.";
        return text(plan.leakyFeedback && q?.goldSql ? `The query should be:\n\`\`\`sql\n${q.goldSql}\n\`\`\`\n${said}` : said);
      }
      case "corrector": {
        if (!q) return sqlReply("SELECT 1");
        const n = (correctorCalls.get(q.id) ?? 0) + 1;
        correctorCalls.set(q.id, n);
        return n >= plan.correctAt(q) ? sqlReply(q.goldSql!) : sqlReply("SELECT 'still wrong'");
      }
      case "generator":
        return sqlReply(q && plan.generatorWrong?.(q) ? "SELECT 'generated wrong'" : (q?.goldSql ?? "SELECT 1"));
      default:
        return sqlReply(q?.goldSql ?? "SELECT 1");
    }
  };
}
