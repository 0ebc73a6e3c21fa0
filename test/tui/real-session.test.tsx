// The screen on the real stack: AgentSession, the providers over HTTP to the scripted model server on
// 127.0.0.1, and the real coding tools working in a temporary directory. Rendered in memory.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { render } from "ink";
import { afterEach, describe, expect, it } from "vitest";
import { AgentSession, type AgentSessionOptions } from "../../src/core/session/index.js";
import { createCodingTools } from "../../src/tools/index.js";
import { App } from "../../src/tui/components/App.js";
import { tempDir } from "../support/temp-dir.js";
import { scriptedSessionOptions } from "../support/scripted-session.js";
import { useScriptedServer } from "../support/use-scripted-server.js";
import { plain, screenOf, typeKeys, waitForFrame } from "./render-helpers.js";
import { TestStdin, TestStdout } from "./terminal-streams.js";

const server = useScriptedServer();
const cleanups: Array<() => void> = [];

afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

function makeSession(cwd: string, selection: Partial<AgentSessionOptions["selection"]> = {}): AgentSession {
	const session = new AgentSession(scriptedSessionOptions(server, cwd, tempDir(), { selection, systemPrompt: "You are a test.", tools: createCodingTools(cwd) }));
	cleanups.push(() => session.dispose());
	return session;
}

function mount(session: AgentSession) {
	const stdout = new TestStdout(100, 60);
	const screen = screenOf(() => stdout.lastFrame());
	const stdin = new TestStdin();
	const exits: number[] = [];
	const instance = render(<App session={session} inputActive onExit={(code) => exits.push(code)} print={screen.print} />, {
		stdout: stdout as unknown as NodeJS.WriteStream,
		stdin: stdin as unknown as NodeJS.ReadStream,
		debug: true,
		exitOnCtrlC: false,
		patchConsole: false,
	});
	cleanups.unshift(() => instance.unmount());
	const type = (...keys: string[]) => typeKeys(stdin, ...keys);
	const until = (check: (frame: string) => boolean) => waitForFrame(screen.frame, check, 15_000);
	return { type, until, frame: () => plain(screen.frame()) };
}

describe("the screen on a real AgentSession", () => {
	it("shows each real tool's row and result: read lines, bash exit status, edit diff, write bytes", async () => {
		const cwd = tempDir();
		writeFileSync(join(cwd, "notes.txt"), "alpha\nbeta\ngamma\n");
		server.enqueue({
			text: "Looking first.",
			toolCalls: [
				{ id: "call_read", name: "read", arguments: { path: "notes.txt" } },
				{ id: "call_bash", name: "bash", arguments: { command: "echo from-bash; exit 3" } },
			],
		});
		server.enqueue({
			toolCalls: [
				{ id: "call_edit", name: "edit", arguments: { path: "notes.txt", edits: [{ oldText: "beta", newText: "BETA" }] } },
				{ id: "call_write", name: "write", arguments: { path: "out.txt", content: "hello" } },
			],
		});
		server.enqueue({ text: "All **done**.", usage: { input: 2000, output: 50 } });

		const screen = mount(makeSession(cwd));
		await screen.until((f) => f.includes("openai/scripted-model"));
		await screen.type("tidy the notes", "\r");
		const frame = await screen.until((f) => f.includes("All done.") && f.includes("ready"));

		expect(frame).toContain("› tidy the notes");
		expect(frame).toMatch(/✓ read notes\.txt [\d.]+s\n\s+read 3 lines\n/);
		expect(frame).toMatch(/✗ bash echo from-bash; exit 3 [\d.]+s/);
		expect(frame).toContain("from-bash");
		expect(frame).toMatch(/exit 3/);
		expect(frame).toMatch(/✓ edit notes\.txt [\d.]+s\n\s+@@ -1,3 \+1,3 @@\n\s+alpha\n\s+-beta\n\s+\+BETA\n\s+gamma/);
		expect(frame).toMatch(/✓ write out\.txt [\d.]+s\n\s+wrote 5 B/);
		expect(frame.indexOf("Looking first.")).toBeLessThan(frame.indexOf("read notes.txt"));
		expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("alpha\nBETA\ngamma\n");
		expect(readFileSync(join(cwd, "out.txt"), "utf8")).toBe("hello");
	});

	it("says each fact of a command's row once: how it ended in its status line, where its whole output went there too", async () => {
		const cwd = tempDir();
		server.enqueue({
			toolCalls: [
				{ id: "call_fail", name: "bash", arguments: { command: "echo from-bash; exit 3" } },
				{ id: "call_long", name: "bash", arguments: { command: "seq 1 5000" } },
			],
		});
		server.enqueue({ text: "Both ran." });
		const screen = mount(makeSession(cwd));
		await screen.until((f) => f.includes("ready"));
		await screen.type("run them", "\r");
		const frame = await screen.until((f) => f.includes("Both ran.") && f.includes("ready"));
		const failed = frame.slice(frame.indexOf("✗ bash echo"), frame.indexOf("bash seq"));
		expect(failed).toMatch(/from-bash\n\s+exit 3\n/);
		expect(failed).not.toContain("Command failed");
		const long = frame.slice(frame.indexOf("✓ bash seq"), frame.indexOf("Both ran."));
		expect(long).toMatch(/\s+5000\n\s+exit 0 · full output: \S+\.log\n/);
		expect(long.match(/loom-bash-/g)).toHaveLength(1);
		expect(long).not.toContain("Output cut");
		// The model still reads both facts in the results.
		const results = server.requests[1]!.body.messages.filter((message: any) => message.role === "tool").map((message: any) => JSON.stringify(message.content));
		expect(results[0]).toContain("Command failed with exit code 3.");
		expect(results[1]).toContain("Output cut");
	});

	it("/new then /resume brings the earlier conversation back on screen, tool rows included", async () => {
		const cwd = tempDir();
		writeFileSync(join(cwd, "data.txt"), "one\ntwo\n");
		server.enqueue({ toolCalls: [{ id: "call_r", name: "read", arguments: { path: "data.txt" } }] });
		server.enqueue({ text: "Two lines." });
		const session = makeSession(cwd);
		const screen = mount(session);
		await screen.until((f) => f.includes("ready"));
		await screen.type("count the lines", "\r");
		await screen.until((f) => f.includes("Two lines.") && f.includes("ready"));
		await screen.type("/new", "\r");
		await screen.until((f) => f.includes("· Session") && f.split("· Session").length === 3);
		await screen.type("/resume", "\r");
		await screen.until((f) => f.includes("Resume which session?") && f.includes("› count the lines"));
		await screen.type("\r");
		const frame = await screen.until((f) => f.includes("Resumed session with 4 messages"));
		const resumed = frame.slice(frame.indexOf("Resumed session with 4 messages"));
		expect(resumed).toMatch(/› count the lines\n\n✓ read data\.txt\n\s+read 2 lines\n\nTwo lines\./);
		expect(session.messageCount).toBe(4);
	});

	it("/model switches from the next request, and the footer's context percentage follows the new model's window", async () => {
		const home = tempDir();
		const models = [
			{ id: "small", contextWindow: 1000 },
			{ id: "big", contextWindow: 10_000 },
		];
		writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl: server.openaiBaseUrl, apiKey: "k", models } } }));
		const session = new AgentSession(scriptedSessionOptions(server, tempDir(), home, { selection: { provider: "local", modelId: "small" } }));
		cleanups.push(() => session.dispose());
		server.enqueue({ text: "First answer.", usage: { input: 500, output: 100 } }, { text: "Second answer." });
		const screen = mount(session);
		await screen.until((f) => f.includes("ready"));
		await screen.type("hi", "\r");
		await screen.until((f) => f.includes("First answer.") && f.includes("local/small") && f.includes("ctx 60%"));
		await screen.type("/model local/big", "\r");
		const frame = await screen.until((f) => f.includes("local/big ·"));
		expect(frame).toContain("ctx 6%");
		expect(frame).not.toContain("ctx 60%");
		await screen.type("again", "\r");
		await screen.until((f) => f.includes("Second answer.") && f.includes("ready"));
		expect(server.requests.map((request) => request.body.model)).toEqual(["small", "big"]);
	});

	it("after /compact the footer's context percentage is the compacted context's, before any new answer", async () => {
		const home = tempDir();
		writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl: server.openaiBaseUrl, apiKey: "k", models: [{ id: "small", contextWindow: 10_000 }] } } }));
		const session = new AgentSession(scriptedSessionOptions(server, tempDir(), home, { selection: { provider: "local", modelId: "small" } }));
		cleanups.push(() => session.dispose());
		server.enqueue({ text: "First answer.", usage: { input: 3000, output: 100 } }, { text: "Second answer.", usage: { input: 6000, output: 100 } }, { text: "## Goal\nA short summary." });
		const screen = mount(session);
		await screen.until((f) => f.includes("ready"));
		await screen.type("first", "\r");
		await screen.until((f) => f.includes("First answer.") && f.includes("ready"));
		await screen.type("second", "\r");
		await screen.until((f) => f.includes("Second answer.") && f.includes("ctx 61%"));
		await screen.type("/compact", "\r");
		const frame = await screen.until((f) => f.includes("Compacted the conversation") && f.includes("ready"));
		const expected = Math.round((session.contextUsage.tokens / 10_000) * 100);
		expect(expected).toBeLessThan(61);
		expect(frame).toContain(`ctx ${expected}%`);
		expect(frame).not.toContain("ctx 61%");
	});

	it("Esc stops a slow stream; the run ends as interrupted and the screen is ready again", async () => {
		server.enqueue({ text: "streaming slowly ", endless: true, chunkSize: 4, chunkDelayMs: 20 });
		const screen = mount(makeSession(tempDir()));
		await screen.until((f) => f.includes("ready"));
		await screen.type("write forever", "\r");
		await screen.until((f) => f.includes("streaming slowly") && f.includes("esc to interrupt"));
		await screen.type("\u001b");
		const frame = await screen.until((f) => f.includes("Interrupted.") && f.includes("ready"));
		expect(frame).not.toContain("esc to interrupt");
	});

	it("explains a missing API key on the screen, without a stack trace, and keeps the prompt", async () => {
		const screen = mount(makeSession(tempDir(), { apiKey: undefined }));
		let frame = await screen.until((f) => f.includes("✗"));
		await screen.type("hello", "\r");
		frame = await screen.until((f) => f.includes("› hello") && f.includes("ready"));
		const errors = frame.split("\n").filter((line) => line.startsWith("✗"));
		expect(errors.length).toBeGreaterThanOrEqual(1);
		expect(errors.join("\n")).toMatch(/key/i);
		expect(frame).not.toMatch(/\n\s+at \S+ \(/);
		expect(server.requests).toHaveLength(0);
	});
});
