// `node record-stdin.mjs <log> <command> [args...]`: runs a stdio MCP server with this process's stdin passed on
// to it and also appended to <log>, so a test can read what the client sent (a cancellation, ...). The server
// is exec'd in spirit: same stdout and stderr, and this process leaves with its exit status.
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";

const [log, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "inherit", "inherit"] });
process.stdin.on("data", (chunk) => {
	appendFileSync(log, chunk);
	child.stdin.write(chunk);
});
process.stdin.on("end", () => child.stdin.end());
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
