import { defineConfig } from "../../core/config.ts";

/** `serve`'s options, declared once (the launcher's flags and their checks; `startServe` takes the same names). */
export const SERVE_CONFIG = defineConfig({
  graph: { type: "strings", metavar: "FILE", help: "a graph module of yours (made with defineGraph), served beside the built-ins (repeatable)" },
  host: { type: "string", metavar: "HOST", help: "the address to listen on (default 127.0.0.1: this machine only)" },
  port: { type: "int", min: 1, max: 65535, metavar: "N", help: "the port (default 2024)" },
});
