// End to end: when stdout cannot take the output (a full disk), loom says so and fails instead of exiting 0.
import { closeSync, existsSync, openSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { workspace } from "../support/temp-dir.js";
import { runLoom, serverFlags, sessionFiles, useScriptedServer } from "../support/loom-process.js";

const server = useScriptedServer();

/** /dev/full accepts opens and fails every write with ENOSPC, as a full disk does. */
async function runIntoFullDisk(args: string[], ws = workspace()) {
	const fd = openSync("/dev/full", "w");
	try {
		return await runLoom(args, { ...ws, stdoutFd: fd });
	} finally {
		closeSync(fd);
	}
}

describe.skipIf(!existsSync("/dev/full"))("stdout that cannot be written", () => {
	it("text mode: the answer that could not be written is an error, exit 1", async () => {
		server.enqueue({ text: "the answer" });
		const result = await runIntoFullDisk(["-p", ...serverFlags(server.openaiBaseUrl), "hi"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/could not write to stdout.*ENOSPC/i);
	});

	it("json mode: stops the run and exits 1, naming the problem", async () => {
		server.enqueue({ text: "never seen", endless: true, chunkDelayMs: 10 });
		const ws = workspace();
		const result = await runIntoFullDisk(["-p", "--mode", "json", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/could not write to stdout.*ENOSPC/i);
		// The run was stopped, and its session file is complete.
		expect(sessionFiles(ws.home)).toHaveLength(1);
	});
});
