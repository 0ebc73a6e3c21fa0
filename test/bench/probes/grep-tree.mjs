// Probe: one grep tool call over a folder. Prints its time and what it found.
import { createGrepTool } from "../../../dist/tools/index.js";

const { dir, pattern, limit } = JSON.parse(process.argv[2]);
const tool = createGrepTool(dir);
const started = process.hrtime.bigint();
const result = await tool.execute("g", { pattern, limit });
const ms = Number(process.hrtime.bigint() - started) / 1e6;
console.log(JSON.stringify({ ms, matches: result.details.matches, searched: result.details.searched }));
