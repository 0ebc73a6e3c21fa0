// End to end: the folder where bash keeps long outputs lives as long as the loom process, whatever ends it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runLoom, serverFlags, startLoom, useScriptedServer } from "../support/loom-process.js";
import { workspace } from "../support/temp-dir.js";
import { waitFor } from "../support/wait-for.js";

const server = useScriptedServer();

/** A workspace whose loom gets its own temporary directory (TMPDIR). */
function setup() {
	const ws = workspace();
	const tmp = join(ws.cwd, "..", "tmp");
	mkdirSync(tmp);
	return { ...ws, tmp, env: { TMPDIR: tmp } };
}

function outputFolders(tmp: string): string[] {
	return readdirSync(tmp).filter((name) => name.startsWith("loom-output-"));
}

describe("bash output files of a loom process", () => {
	it("stay while loom runs, for the model to read, and are removed when it exits", async () => {
		const ws = setup();
		server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "seq 1 100000" } }] }, { text: "Read it." });
		let savedPath: string | undefined;
		let existedDuringRun = false;
		server.setResponder((body, index) => {
			if (index === 1) {
				savedPath = /Full output: (\S+)\]/.exec(JSON.stringify(body.messages.at(-1)))?.[1];
				existedDuringRun = savedPath !== undefined && existsSync(savedPath);
			}
			return undefined;
		});
		const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "count"], ws);
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		expect(savedPath?.startsWith(join(ws.tmp, "loom-output-"))).toBe(true);
		expect(existedDuringRun).toBe(true);
		expect(outputFolders(ws.tmp)).toEqual([]);
	});

	it.each([
		["SIGTERM", 143],
		["SIGHUP", 129],
		["SIGINT", 130],
	] as const)("are removed when loom is stopped by %s in the middle of a command", async (signal, code) => {
		const ws = setup();
		server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "yes", timeout: 60 } }] }, { text: "never" });
		const run = startLoom(["-p", ...serverFlags(server.openaiBaseUrl), "be loud"], ws);
		await waitFor(() => outputFolders(ws.tmp).some((name) => readdirSync(join(ws.tmp, name)).length > 0), Boolean, { what: "the output file" });
		run.child.kill(signal);
		const result = await run.done;
		expect(result.code).toBe(code);
		expect(outputFolders(ws.tmp)).toEqual([]);
	});

	it("of a loom process that crashed are removed by the next one", async () => {
		const ws = setup();
		const deadPid = spawnSync("true").pid;
		const left = join(ws.tmp, `loom-output-${deadPid}-abcdef`);
		mkdirSync(left);
		writeFileSync(join(left, "loom-bash-1.log"), "x".repeat(1000));
		const unrelated = mkdtempSync(join(ws.tmp, "other-"));
		server.enqueue({ text: "hello" });
		const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.code).toBe(0);
		expect(existsSync(left)).toBe(false);
		expect(existsSync(unrelated)).toBe(true);
	});
});
