// Probe: one grep (or find) tool call over a folder. Prints its time and what it found.
import { createFindTool, createGrepTool } from "../../../dist/tools/index.js";

const { dir, pattern, limit, tool = "grep", ripgrep = false } = JSON.parse(process.argv[2]);
const call = tool === "find" ? createFindTool(dir) : createGrepTool(dir, { ripgrep: ripgrep ? undefined : false });
const started = process.hrtime.bigint();
const result = await call.execute("g", { pattern, limit });
const ms = Number(process.hrtime.bigint() - started) / 1e6;
console.log(JSON.stringify({ ms, matches: result.details.matches ?? result.details.found, searched: result.details.searched }));
