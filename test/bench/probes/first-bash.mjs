// Probe: what reading the first bash call's line costs in a fresh process (and the CPU the grammar took), with the grammar's preload started at
// session assembly (`preload`) and the model's answer taking `delay` ms, or with nothing loaded ahead.
import { parseShell, preloadShellParser } from "../../../dist/plugs/policy/shell-parse.js";

const { preload, delay, settleMs = 1000 } = JSON.parse(process.argv[2]);
const cpu = process.cpuUsage();
if (preload) preloadShellParser();
await new Promise((resolve) => setTimeout(resolve, delay));
const started = process.hrtime.bigint();
await parseShell("cd src && grep -rn needle . | head -20", "/home/user");
const ms = Number(process.hrtime.bigint() - started) / 1e6;
// Background compiling included: what the grammar costs the machine's cores, not only the first call (a second
// at full size; smoke size, whose figures are not judged, waits less).
await new Promise((resolve) => setTimeout(resolve, settleMs));
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000 }));
