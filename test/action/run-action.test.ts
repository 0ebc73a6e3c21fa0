// The GitHub Action's script (action/run-action.mjs), run as the runner runs it: inputs in INPUT_*, the result
// written to GITHUB_OUTPUT and the job summary to GITHUB_STEP_SUMMARY, loom's exit code its own.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { workspace } from "../support/temp-dir.js";
import { cleanEnv, serverFlags, useScriptedServer } from "../support/loom-process.js";

const server = useScriptedServer();
const SCRIPT = resolve("action/run-action.mjs");

function runAction(env: Record<string, string>, home: string): Promise<number | null> {
	return new Promise((done) => {
		const child = spawn(process.execPath, [SCRIPT], { env: { ...cleanEnv(home), ...env }, stdio: ["ignore", "ignore", "ignore"] });
		child.on("close", (code) => done(code));
	});
}

describe("action/run-action.mjs", () => {
	it("runs the prompt with the schema on the workspace, sets the result output and writes the job summary", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "schema.json"), JSON.stringify({ type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] }));
		const output = join(ws.home, "output.txt");
		const summary = join(ws.home, "summary.md");
		server.enqueue({ text: '{"ok": true}' });
		const code = await runAction(
			{
				INPUT_PROMPT: "check it",
				INPUT_OUTPUT_SCHEMA: "schema.json",
				INPUT_ARGS: serverFlags(server.openaiBaseUrl).join("\n").replace(/\n(?!-)/g, " "),
				GITHUB_WORKSPACE: ws.cwd,
				GITHUB_OUTPUT: output,
				GITHUB_STEP_SUMMARY: summary,
			},
			ws.home,
		);
		expect(code).toBe(0);
		expect(readFileSync(output, "utf8")).toMatch(/^result<<(loom_[0-9a-f-]+)\n\{"ok":true\}\n\1\nexit-code<<(loom_[0-9a-f-]+)\n0\n\2\n$/);
		const text = readFileSync(summary, "utf8");
		expect(text).toContain("### loom: done");
		expect(text).toContain('"ok": true');
		expect(text).toContain("> check it");
		// --ephemeral: the run left no session behind.
		expect(existsSync(join(ws.home, "sessions"))).toBe(false);
		expect(server.requests[0]!.body.response_format.type).toBe("json_schema");
	});
});
