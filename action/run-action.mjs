// The GitHub Action's step (action.yml): runs `loom -p --mode json --ephemeral` on the workspace with the inputs,
// then writes the answer as the step's `result` output and a job summary. Inputs and GitHub's files come from the
// environment as the runner sets them (INPUT_*, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_WORKSPACE); LOOM_BIN
// names another loom (tests). Exits with loom's exit code.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { appendFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const env = process.env;
const input = (name) => (env[`INPUT_${name}`] ?? "").trim();

/** loom's arguments for the inputs. */
export function loomArgs() {
	const args = ["-p", "--mode", "json", "--ephemeral"];
	if (input("MODEL")) args.push("--model", input("MODEL"));
	if (input("OUTPUT_SCHEMA")) args.push("--output-schema", input("OUTPUT_SCHEMA"));
	for (const line of input("ARGS").split("\n")) if (line.trim()) args.push(...line.trim().split(/\s+/));
	if (!input("PROMPT")) throw new Error("the prompt input is empty");
	args.push("--", input("PROMPT"));
	return args;
}

/** `name<<delimiter` form: a value over several lines, as GitHub's output files take it. */
function outputLine(name, value) {
	const delimiter = `loom_${randomUUID()}`;
	return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

function run() {
	const bin = env.LOOM_BIN || join(dirname(fileURLToPath(import.meta.url)), "..", "bin", "loom");
	const child = spawn(process.execPath, [bin, ...loomArgs()], { cwd: env.GITHUB_WORKSPACE || process.cwd(), stdio: ["ignore", "pipe", "inherit"] });
	let buffered = "";
	let answer = "";
	let result;
	let cost = 0;
	let tokens = 0;
	child.stdout.setEncoding("utf8").on("data", (chunk) => {
		buffered += chunk;
		let end;
		while ((end = buffered.indexOf("\n")) !== -1) {
			const line = buffered.slice(0, end);
			buffered = buffered.slice(end + 1);
			let event;
			try {
				event = JSON.parse(line);
			} catch {
				continue;
			}
			if (event.type === "result" && event.status === "ok") result = event.result;
			if (event.type === "message_end" && event.message?.role === "assistant") {
				answer = (event.message.content ?? []).filter((part) => part.type === "text").map((part) => part.text).join("");
				tokens += event.message.usage?.totalTokens ?? 0;
				cost += event.message.usage?.cost?.total ?? 0;
			}
		}
	});
	child.on("close", (code, signal) => {
		const exitCode = code ?? 1;
		const value = result !== undefined ? JSON.stringify(result) : answer;
		if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, outputLine("result", exitCode === 0 ? value : "") + outputLine("exit-code", String(exitCode)));
		if (env.GITHUB_STEP_SUMMARY) {
			const status = exitCode === 0 ? "done" : exitCode === 3 ? "the answer was not valid against the output schema" : `failed (exit ${exitCode}${signal ? `, ${signal}` : ""})`;
			const body = result !== undefined ? `\`\`\`json\n${JSON.stringify(result, null, 2)}\n\`\`\`` : answer;
			appendFileSync(env.GITHUB_STEP_SUMMARY, `### loom: ${status}\n\n> ${input("PROMPT").split("\n").join("\n> ")}\n\n${body}\n\n${tokens} tokens · $${cost.toFixed(4)}\n`);
		}
		process.exit(exitCode);
	});
}

if (process.argv[1] === fileURLToPath(import.meta.url)) run();
