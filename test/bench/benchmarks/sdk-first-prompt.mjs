// An SDK program's first prompt: a fresh Node process imports the package's entry (package.json's exports, as an
// installed "loom" resolves), creates a session against the scripted server, sends one prompt and exits. Timed from
// spawn to the answer's line on stdout, loom beside Pi 0.73.1's SDK (createAgentSession with the same server as a
// custom model) where Pi is installed, in turn; the import alone is timed inside each process, and `loom -p` (the
// command's one-shot, spawn to its answer) runs in the same rotation for the "as lean as the command" comparison.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startScriptedModelServer } from "../../support/scripted-model-server.mjs";
import { loomBin, ms, repoRoot, summarize } from "../lib.mjs";
import { piSdkEntry, writePiAgentDir } from "../pi.mjs";

const PROBE = fileURLToPath(new URL("../probes/sdk-first-prompt.mjs", import.meta.url));

/** The file `import … from "loom"` loads: the package's own exports. */
function loomEntry() {
	const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));
	return path.join(repoRoot, manifest.exports["."].default);
}

/** Spawns a process; resolves with the time from spawn to its first line on stdout, and that line, once it exits 0. */
function untilFirstLine(args, options) {
	return new Promise((resolve, reject) => {
		const started = process.hrtime.bigint();
		const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
		let stdout = "";
		let stderr = "";
		let lineMs;
		child.stdout.on("data", (chunk) => {
			stdout += chunk;
			if (lineMs === undefined && stdout.includes("\n")) lineMs = Number(process.hrtime.bigint() - started) / 1e6;
		});
		child.stderr.on("data", (chunk) => (stderr += chunk));
		child.on("error", reject);
		child.on("close", (code) => {
			if (code !== 0 || lineMs === undefined) reject(new Error(`${path.basename(args[0])} exited ${code}: ${stderr.slice(-1000)}`));
			else resolve({ ms: lineMs, line: stdout.slice(0, stdout.indexOf("\n")) });
		});
	});
}

const ratioText = (value) => `${value.toFixed(2)}×`;

export default {
	name: "sdk first prompt",
	async run({ smoke }) {
		const runs = smoke ? 1 : 7;
		const home = mkdtempSync(path.join(os.tmpdir(), "loom-bench-sdk-"));
		const server = await startScriptedModelServer({ defaultTurn: { text: "hello" } });
		try {
			const cwd = path.join(home, "project");
			mkdirSync(cwd, { recursive: true });
			const piEntry = piSdkEntry();
			const piDir = path.join(home, "pi");
			if (piEntry) writePiAgentDir(piDir, server.openaiBaseUrl);
			const env = { ...process.env, HOME: home, LOOM_HOME: path.join(home, "loom"), PI_CODING_AGENT_DIR: piDir, PI_OFFLINE: "1" };
			const probe = async (agent, entry) => {
				const { ms: answerMs, line } = await untilFirstLine([PROBE, JSON.stringify({ agent, entry, baseUrl: server.openaiBaseUrl, agentDir: piDir })], { cwd, env });
				return { answerMs, importMs: JSON.parse(line).importMs };
			};
			const oneShot = async () => {
				const { ms: answerMs, line } = await untilFirstLine([loomBin, "-p", "hi", "--no-session", "--provider", "openai", "--model", "scripted", "--base-url", server.openaiBaseUrl, "--api-key", "k"], { cwd, env });
				if (line !== "hello") throw new Error(`loom -p answered ${JSON.stringify(line)}`);
				return answerMs;
			};
			const entry = loomEntry();
			const loom = [];
			const pi = [];
			const cli = [];
			// In turn, loom, Pi, the command: pairing keeps the ratios meaningful while the machine's speed drifts.
			for (let i = 0; i < runs; i++) {
				loom.push(await probe("loom", entry));
				if (piEntry) pi.push(await probe("pi", piEntry));
				cli.push(await oneShot());
			}
			const pairRatio = (mine, theirs) => summarize(mine.map((value, index) => value / theirs[index])).median;
			const answers = summarize(loom.map((one) => one.answerMs));
			const imports = summarize(loom.map((one) => one.importMs));
			const piAnswers = piEntry ? summarize(pi.map((one) => one.answerMs)) : undefined;
			const piImports = piEntry ? summarize(pi.map((one) => one.importMs)) : undefined;
			const answerRatio = piEntry ? pairRatio(loom.map((one) => one.answerMs), pi.map((one) => one.answerMs)) : undefined;
			const importRatio = piEntry ? pairRatio(loom.map((one) => one.importMs), pi.map((one) => one.importMs)) : undefined;
			const cliRatio = pairRatio(loom.map((one) => one.answerMs), cli);
			const entryName = path.relative(repoRoot, entry);
			const missing = "Pi not installed: no ratio";
			return [
				{
					metric: "sdk first prompt",
					workload: `spawn → answer: import ${entryName}, createAgentSession (in-memory session), prompt "hi", local server answering at once; ${piEntry ? `Pi's createAgentSession: ${ms(piAnswers.median)}; loom/Pi ${ratioText(answerRatio)} (paired)` : missing}`,
					...answers,
					format: ms,
					target: "≤ 1× Pi",
					...(answerRatio === undefined ? {} : { pass: answerRatio <= 1 }),
				},
				{
					metric: "sdk import",
					workload: `\`await import()\` of ${entryName} alone, in that process; ${piEntry ? `Pi's entry: ${ms(piImports.median)}; loom/Pi ${ratioText(importRatio)} (paired)` : missing}`,
					...imports,
					format: ms,
					target: "≤ 1× Pi",
					...(importRatio === undefined ? {} : { pass: importRatio <= 1 }),
				},
				{
					metric: "sdk vs loom -p",
					workload: `the SDK program's spawn → answer over \`loom -p "hi" --no-session\`'s (${ms(summarize(cli).median)}), paired`,
					value: cliRatio,
					format: ratioText,
					target: "(reported)",
				},
			];
		} finally {
			await server.close();
			rmSync(home, { recursive: true, force: true });
		}
	},
};
