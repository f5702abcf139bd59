import type { Command } from "../command.ts";
import { execCommand } from "./exec.ts";
import { scoreCommand } from "./score.ts";
import { graphsCommand } from "./graphs.ts";
import { askCommand } from "./ask.ts";
import { evalCommand } from "./eval.ts";
import { inspectCommand, threadsCommand } from "./threads.ts";

/** Every launcher command, in the order `sqlmend help` lists them. */
export const commands: Command[] = [graphsCommand, askCommand, evalCommand, threadsCommand, inspectCommand, execCommand, scoreCommand];
