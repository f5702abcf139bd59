import { startOpenAIServer } from "./test/support/openai-server.ts";
const s = await startOpenAIServer({ respond: (req) => {
  const last = req.messages.at(-1)!.content;
  if (last.includes("fails")) return { content: "The column is `name`.\n```sql\nSELECT name, city FROM customers WHERE city = 'London'\n```" };
  return { content: "<think>let me see</think>\n```sql\nSELECT nme, city FROM customers WHERE city = 'London'\n```", usage: { prompt_tokens: 321, completion_tokens: 25 } };
}});
console.log(s.url);
setInterval(() => {}, 1000);
