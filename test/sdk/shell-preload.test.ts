// The shell grammar the approval policy reads bash lines with loads while a session with a shell tool waits for
// its first answer, so the first bash call does not sit in "preparing" while it loads, and the first request is
// not held back by it.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { SessionManager } from "../../src/sdk/session-manager.js";
import { workspace } from "../support/temp-dir.js";

/** Fresh modules for each test: the parser's load is once per process. */
async function fresh() {
	vi.resetModules();
	const { createAgentSession } = await import("../../src/sdk/create-agent-session.js");
	const { parseShell, shellParserRequested, shellParserWarmed } = await import("../../src/plugs/policy/shell-parse.js");
	const { ScriptedUi } = await import("../support/scripted-ui.js");
	const create = (tools?: string[], preloadAfter?: Promise<unknown>) => {
		const ws = workspace();
		return createAgentSession({
			cwd: ws.cwd,
			loomHome: ws.home,
			provider: "openai",
			model: "scripted-model",
			baseUrl: "http://127.0.0.1:1",
			apiKey: "test-key",
			sessionManager: SessionManager.inMemory(),
			// No server listens there: a prompt's run ends at its first request.
			settings: { retry: { maxRetries: 0 } },
			ui: new ScriptedUi({ interactive: false }),
			...(tools ? { tools } : {}),
			preloadAfter,
		});
	};
	return { create, parseShell, shellParserRequested, shellParserWarmed };
}

describe("loading the shell grammar ahead of the first bash call", () => {
	beforeEach(() => {
		vi.resetModules();
	});

	it("starts once the first answer begins (or the run ends without one), not before the first request", async () => {
		const { create, shellParserRequested } = await fresh();
		const { session } = await create();
		expect(session.tools.map((tool) => tool.name)).toContain("bash");
		await new Promise((resolve) => setImmediate(resolve));
		expect(shellParserRequested()).toBe(false);
		await session.prompt("hi");
		await vi.waitFor(() => expect(shellParserRequested()).toBe(true));
		session.dispose();
	});

	it("waits for preloadAfter to settle (the screen's first frame), then starts", async () => {
		const { create, shellParserRequested } = await fresh();
		let drawn = () => {};
		const { session } = await create(undefined, new Promise<void>((resolve) => (drawn = resolve)));
		await new Promise((resolve) => setImmediate(resolve));
		expect(shellParserRequested()).toBe(false);
		drawn();
		await vi.waitFor(() => expect(shellParserRequested()).toBe(true));
		session.dispose();
	});

	it("has the grammar loaded and warmed before the first call, so reading that call's line waits for nothing", async () => {
		const { create, parseShell, shellParserWarmed } = await fresh();
		const { session } = await create(undefined, Promise.resolve());
		await shellParserWarmed();
		// Nothing left to load: the line is read within the microtasks of this turn, before any I/O could finish.
		let read: unknown;
		void parseShell("git status && ls -la | head", "/home/u").then((line) => (read = line));
		await new Promise((resolve) => setImmediate(resolve));
		expect(read).toMatchObject({ complete: true, commands: [{ words: [{ text: "git" }, { text: "status" }] }, { words: [{ text: "ls" }, { text: "-la" }] }, { words: [{ text: "head" }] }] });
		session.dispose();
	});

	it("reads lines right in two copies of the policy loaded into one process and loading at once", async () => {
		// Two bundles, or a module loaded again, share the one tree-sitter runtime of the process.
		const first = await import("../../src/plugs/policy/shell-parse.js");
		vi.resetModules();
		const second = await import("../../src/plugs/policy/shell-parse.js");
		expect(second).not.toBe(first);
		const lines = await Promise.all([first, second, first, second].map((copy) => copy.parseShell("git status | head", "/home/u")));
		for (const line of lines) expect(line).toMatchObject({ complete: true, commands: [{ words: [{ text: "git" }, { text: "status" }] }, { words: [{ text: "head" }] }] });
	});

	it("does not start for a session without a shell tool", async () => {
		const { create, shellParserRequested } = await fresh();
		const { session } = await create(["read"]);
		expect(shellParserRequested()).toBe(false);
		session.dispose();
	});
});
