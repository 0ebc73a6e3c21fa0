// Pi 0.73.1, the agent loom is measured beside: where it is installed (LOOM_BENCH_PI names its `pi`, or "none" to
// leave Pi out; else /tmp/pi or the PATH), and its configuration for the scripted model server. Benchmarks skip
// Pi's side without it.
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { findOnPath } from "../../dist/core/index.js";

/** Pi's command, or undefined when it is not installed. */
export function piBin() {
	const given = process.env.LOOM_BENCH_PI;
	if (given === "none") return undefined;
	if (given) return existsSync(given) ? given : undefined;
	const local = "/tmp/pi/node_modules/.bin/pi";
	return existsSync(local) ? local : findOnPath("pi", process.env.PATH ?? "");
}

/** Pi's SDK entry (its package's main, beside the command's dist/cli.js), or undefined. */
export function piSdkEntry() {
	const bin = piBin();
	if (bin === undefined) return undefined;
	const entry = path.join(path.dirname(realpathSync(bin)), "index.js");
	return existsSync(entry) ? entry : undefined;
}

/**
 * Writes Pi's agent directory `dir` with a models.json naming the scripted server's OpenAI endpoint as provider
 * "bench", model "scripted" (without the developer role and reasoning effort, which the server does not speak).
 */
export function writePiAgentDir(dir, openaiBaseUrl) {
	mkdirSync(dir, { recursive: true });
	const provider = { baseUrl: openaiBaseUrl, api: "openai-completions", apiKey: "k", compat: { supportsDeveloperRole: false, supportsReasoningEffort: false }, models: [{ id: "scripted" }] };
	writeFileSync(path.join(dir, "models.json"), JSON.stringify({ providers: { bench: provider } }));
}
