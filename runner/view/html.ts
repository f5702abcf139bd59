/**
 * Escaping for the run explorer's pages: every string from a model, a database or a benchmark file goes through
 * `esc` (text and attributes) or `jsonForScript` (data embedded in a <script> element), and secrets are masked.
 */
import { maskSecrets } from "../../core/secrets.ts";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text or an attribute value as HTML, secrets masked (a URL's password, as the reports mask it). */
export const esc = (value: unknown): string => maskSecrets(value === undefined || value === null ? "" : String(value)).replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/**
 * JSON safe inside `<script type="application/json">`: `<`, `>` and `&` as \u escapes, so no `</script` or `<!--`
 * in any string can end the element or open a comment; U+2028/2029 escaped for old parsers. Secrets masked first.
 */
export const jsonForScript = (value: unknown): string =>
  maskSecrets(JSON.stringify(value) ?? "null").replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** A value of a state field or a result cell as short text: strings as they are, the rest as JSON, cut at `max` characters (said). */
export function shortText(value: unknown, max = 4000): string {
  const text = typeof value === "string" ? value : value === undefined ? "" : (JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2) ?? String(value));
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters not shown)` : text;
}
