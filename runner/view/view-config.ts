import { defineConfig } from "../../core/config.ts";

/** `view`'s options, declared once (the launcher's flags, their checks and --help lines). */
export const VIEW_CONFIG = defineConfig({
  host: { type: "string", metavar: "H", help: "the address to listen on (default 127.0.0.1: this machine only)" },
  port: { type: "int", min: 0, metavar: "N", help: "the port (default 8737; 0 picks a free one)" },
  export: { type: "string", metavar: "FILE.html", help: "write one self-contained HTML file (no server, no network) of the run, or of\nthe comparison when several runs are given, and exit" },
  maxQuestions: { type: "int", min: 1, metavar: "N", help: "--export: question pages included per run (default 100; wrong and failed first);\nthe file says what it left out" },
  checkpoints: { type: "string", metavar: "LOCATION", help: "where the runs' threads are, over what run.json says (a PostgreSQL URL:\nrun.json keeps it without its password)" },
});
