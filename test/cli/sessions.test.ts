// End to end: sessions on disk across runs: continue, resume, torn files (in-process, through the CLI's I/O
// seam), and interrupts and kills of the built binary.
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspace } from "../support/temp-dir.js";
import { sleep, waitFor } from "../support/wait-for.js";
import { runLoomInProcess } from "../support/loom-in-process.js";
import { serverFlags, sessionFiles, startLoom, useScriptedServer } from "../support/loom-process.js";
import { sessionLines as fileLines, sessionMessages as messagesOf } from "../support/loom-process.js";

const server = useScriptedServer();

function requestText(index: number): string {
	return JSON.stringify(server.requests[index]!.body.messages);
}

describe("sessions across runs", () => {
	it("-c continues the newest session of the directory: the model sees the first exchange", async () => {
		const ws = workspace();
		server.enqueue({ text: "Paris." }, { text: "About 2 million." });
		const first = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "capital of France?"], ws);
		expect(first.code).toBe(0);
		const second = await runLoomInProcess(["-p", "-c", ...serverFlags(server.openaiBaseUrl), "and its population?"], ws);
		expect(second.code).toBe(0);
		expect(second.stdout).toBe("About 2 million.\n");

		const roles = server.requests[1]!.body.messages.map((m: any) => m.role);
		expect(roles).toEqual(["system", "user", "assistant", "user"]);
		expect(requestText(1)).toContain("capital of France?");
		expect(requestText(1)).toContain("Paris.");
		const files = sessionFiles(ws.home);
		expect(files).toHaveLength(1);
		expect(messagesOf(files[0]!).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
	});

	it("-c with no earlier session starts a new one and says so", async () => {
		const ws = workspace();
		server.enqueue({ text: "fresh" });
		const result = await runLoomInProcess(["-p", "-c", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.code).toBe(0);
		expect(result.stderr).toMatch(/No earlier session/);
		expect(sessionFiles(ws.home)).toHaveLength(1);
	});

	it("resumes a session whose last line was torn by a crash, with a warning, and appends after it", async () => {
		const ws = workspace();
		server.enqueue({ text: "first answer" }, { text: "second answer" });
		await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "first question"], ws);
		const [file] = sessionFiles(ws.home);
		appendFileSync(file!, '{"type":"message","id":"0badc0de","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","n":3,"message":{"role":"assis');

		const result = await runLoomInProcess(["-p", "-c", ...serverFlags(server.openaiBaseUrl), "second question"], ws);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("second answer\n");
		expect(result.stderr).toMatch(/warning: .*last line \(\d+\) is incomplete/);
		expect(requestText(1)).toContain("first answer");
		// The torn fragment stays where it was (nothing rewritten); new entries follow on lines of their own.
		const text = readFileSync(file!, "utf8");
		expect(text).toContain('"role":"assis\n');
		const lines = text.trimEnd().split("\n");
		expect(() => JSON.parse(lines.at(-1)!)).not.toThrow();
		expect(JSON.parse(lines.at(-1)!).message.content[0].text).toBe("second answer");
	});

	it("--session opens a session by id prefix or path; a bad value is a usage error", async () => {
		const ws = workspace();
		server.enqueue({ text: "one" }, { text: "two" }, { text: "three" }, { text: "four" });
		await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "alpha session"], ws);
		await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "beta session"], ws);
		const alpha = sessionFiles(ws.home).find((file) => readFileSync(file, "utf8").includes("alpha session"))!;
		const alphaId = fileLines(alpha)[0].id as string;

		expect((await runLoomInProcess(["-p", "--session", alphaId.slice(0, 8), ...serverFlags(server.openaiBaseUrl), "more"], ws)).code).toBe(0);
		expect(requestText(2)).toContain("alpha session");
		expect(requestText(2)).not.toContain("beta session");
		expect((await runLoomInProcess(["-p", "--session", alpha, ...serverFlags(server.openaiBaseUrl), "again"], ws)).code).toBe(0);
		expect(messagesOf(alpha)).toHaveLength(6);

		const unknown = await runLoomInProcess(["-p", "--session", "ffffffff", ...serverFlags(server.openaiBaseUrl), "x"], ws);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toMatch(/No session with an id starting with "ffffffff"/);
		const notSession = await runLoomInProcess(["-p", "--session", "/etc/hostname", ...serverFlags(server.openaiBaseUrl), "x"], ws);
		expect(notSession.code).toBe(2);
		expect(notSession.stderr).toMatch(/not a loom session file/);
	});

	it("-r without a terminal prints the sessions newest first and exits 2 with guidance", async () => {
		const ws = workspace();
		server.enqueue({ text: "one" }, { text: "two" });
		await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "older prompt"], ws);
		await sleep(20);
		await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "newer prompt"], ws);
		const result = await runLoomInProcess(["-r", ...serverFlags(server.openaiBaseUrl)], ws);
		expect(result.code).toBe(2);
		const rows = result.stdout.trimEnd().split("\n");
		expect(rows).toHaveLength(2);
		expect(rows[0]).toMatch(/^1\. \d{4}-\d{2}-\d{2} \d{2}:\d{2} +2 msg +[0-9a-f]{8} +newer prompt$/);
		expect(rows[1]).toMatch(/^2\. .* older prompt$/);
		expect(result.stderr).toMatch(/--session <id>/);
	});

	it("Ctrl+C mid-stream aborts, keeps the session file complete, and exits 130", async () => {
		const ws = workspace();
		server.enqueue({ text: "word ", endless: true, chunkDelayMs: 10 });
		const run = startLoom(["--mode", "json", ...serverFlags(server.openaiBaseUrl), "talk forever"], ws);
		await run.waitForStdout('"text_delta"');
		run.child.kill("SIGINT");
		const result = await run.done;
		expect(result.code).toBe(130);
		expect(result.stderr).toMatch(/interrupted/);
		const lastLines = result.stdout.trimEnd().split("\n").slice(-2);
		expect(lastLines[0]).toContain('"type":"agent_end"');
		expect(JSON.parse(lastLines[1]!)).toMatchObject({ type: "run_end", status: "aborted" });

		const [file] = sessionFiles(ws.home);
		const text = readFileSync(file!, "utf8");
		expect(text.endsWith("\n")).toBe(true);
		const messages = messagesOf(file!);
		expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect(messages[1].stopReason).toBe("aborted");
		expect(messages[1].content[0].text).toMatch(/^(word )+/);
	});

	it("kill -9 mid-stream loses only the message being streamed", async () => {
		const ws = workspace();
		server.enqueue(
			{ toolCalls: [{ id: "call_1", name: "read", arguments: { path: "nothing-here.txt" } }] },
			{ text: "word ", endless: true, chunkDelayMs: 10 },
		);
		const run = startLoom(["--mode", "json", ...serverFlags(server.openaiBaseUrl), "look, then talk"], ws);
		await run.waitForStdout(/"text_delta"/);
		run.child.kill("SIGKILL");
		const result = await run.done;
		expect(result.signal).toBe("SIGKILL");
		const [file] = sessionFiles(ws.home);
		expect(messagesOf(file!).map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);

		server.enqueue({ text: "back again" });
		const resumed = await runLoomInProcess(["-p", "-c", ...serverFlags(server.openaiBaseUrl), "continue"], ws);
		expect(resumed.code).toBe(0);
		expect(resumed.stderr).toBe("");
		expect(server.requests.at(-1)!.body.messages.map((m: any) => m.role)).toEqual(["system", "user", "assistant", "tool", "user"]);
	});

	it("Ctrl+C during a bash call ends the run with 130 and leaves no child process behind", async () => {
		const ws = workspace();
		const pidFile = join(ws.cwd, "child.pid");
		server.enqueue({ toolCalls: [{ id: "call_sleep", name: "bash", arguments: { command: `sleep 300 & echo $! > ${pidFile}; wait` } }] });
		const run = startLoom(["--mode", "json", ...serverFlags(server.openaiBaseUrl), "sleep a while"], ws);
		await run.waitForStdout('"tool_execution_start"');
		const pidText = () => (existsSync(pidFile) ? readFileSync(pidFile, "utf8").trim() : "");
		const pid = Number(await waitFor(pidText, Boolean, { what: "the bash command to start" }));
		run.child.kill("SIGINT");
		const result = await run.done;
		expect(result.code).toBe(130);
		const alive = () => {
			try {
				process.kill(pid, 0);
				return true;
			} catch {
				return false;
			}
		};
		await waitFor(() => !alive(), Boolean, { what: `process ${pid} to end` });
		expect(alive()).toBe(false);
		const [file] = sessionFiles(ws.home);
		const messages = messagesOf(file!);
		expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(messages[2].isError).toBe(true);
	});
});
