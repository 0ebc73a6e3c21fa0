// Probe: what reading the first bash call's line costs in a fresh process, with the grammar's preload started at
// session assembly (`preload`) and the model's answer taking `delay` ms, or with nothing loaded ahead.
import { parseShell, preloadShellParser } from "../../../dist/plugs/policy/shell-parse.js";

const { preload, delay } = JSON.parse(process.argv[2]);
if (preload) preloadShellParser();
await new Promise((resolve) => setTimeout(resolve, delay));
const started = process.hrtime.bigint();
await parseShell("cd src && grep -rn needle . | head -20", "/home/user");
console.log(JSON.stringify({ ms: Number(process.hrtime.bigint() - started) / 1e6 }));
