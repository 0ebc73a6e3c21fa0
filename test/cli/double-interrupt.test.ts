// End to end: leaving mid-run keeps the session file complete. A second Ctrl+C leaves at once, but not before the
// file records what is known: the tool call that was running gets its (interrupted) result, so a resume never has
// to invent one. A hang-up ends the run as Ctrl+C does.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runLoom, serverFlags, sessionFiles, startLoom, useScriptedServer } from "../support/loom-process.js";
import { workspace } from "../support/temp-dir.js";
import { sessionMessages as messagesOf } from "../support/loom-process.js";

const server = useScriptedServer();

async function waitForFile(path: string): Promise<void> {
	const deadline = Date.now() + 10_000;
	while (!existsSync(path)) {
		if (Date.now() > deadline) throw new Error(`${path} never appeared`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

describe("leaving mid-run (print mode)", () => {
	it("exits 130 at once with the running tool's result recorded, and a resume sends it without repair", async () => {
		const ws = workspace();
		const started = join(ws.cwd, "started");
		// The command ignores SIGINT and outlives the first interrupt's grace: only the second Ctrl+C ends loom.
		const command = `trap '' INT TERM; touch ${started}; sleep 30`;
		server.enqueue({ toolCalls: [{ id: "call_slow", name: "bash", arguments: { command } }] });
		const run = startLoom(["--mode", "json", ...serverFlags(server.openaiBaseUrl), "run it"], ws);
		await waitForFile(started);
		run.child.kill("SIGINT");
		// Well within the time the first interrupt gives a tool to stop (it ignores SIGTERM, so it takes its grace).
		await new Promise((r) => setTimeout(r, 100));
		run.child.kill("SIGINT");
		const result = await run.done;
		expect(result.code).toBe(130);

		const [file] = sessionFiles(ws.home);
		const messages = messagesOf(file!);
		expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(messages[2]).toMatchObject({ toolCallId: "call_slow", toolName: "bash", isError: true });
		expect(existsSync(`${file}.lock`)).toBe(false);

		server.enqueue({ text: "resumed" });
		const resumed = await runLoom(["-p", "-c", ...serverFlags(server.openaiBaseUrl), "go on"], ws);
		expect(resumed.stderr).toBe("");
		expect(resumed.code).toBe(0);
	});

	it("a hang-up (SIGHUP, the terminal closed) ends the run as Ctrl+C does, with exit 129 and the file complete", async () => {
		const ws = workspace();
		server.enqueue({ text: "word ", endless: true, chunkDelayMs: 10 });
		const run = startLoom(["--mode", "json", ...serverFlags(server.openaiBaseUrl), "talk"], ws);
		await run.waitForStdout('"text_delta"');
		run.child.kill("SIGHUP");
		const result = await run.done;
		expect(result.code).toBe(129);
		const [file] = sessionFiles(ws.home);
		expect(messagesOf(file!).map((m) => [m.role, m.stopReason])).toEqual([
			["user", undefined],
			["assistant", "aborted"],
		]);
	});
});
