// createAgentSession against the scripted model server: the defaults a user gets without options, options that
// mirror the command line, where the conversation is kept, and the session's contract for code embedding it.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { Model, ToolDefinition } from "../../src/core/index.js";
import type { SessionEvent } from "../../src/core/session/index.js";
import { createAgentSession } from "../../src/sdk/create-agent-session.js";
import { SessionManager } from "../../src/sdk/session-manager.js";
import { SessionOptionError } from "../../src/sdk/session-option-error.js";
import { systemOf } from "../core/session/compaction/server-model.js";
import { recordingUi } from "../support/recording-ui.js";
import { scriptedSdkOptions, scriptedSdkSession } from "../support/sdk-session.js";
import { workspace } from "../support/temp-dir.js";
import { useScriptedServer } from "../support/use-scripted-server.js";
import { sleep, waitFor } from "../support/wait-for.js";

const server = useScriptedServer();

const toolNames = (index: number) => server.requests[index]!.body.tools?.map((tool: any) => tool.function.name) ?? [];

/** A tool whose calls wait until released by value, recording when each starts. */
function gatedTool(name = "echo", mode?: "sequential") {
	const started: string[] = [];
	const gates = new Map<string, () => void>();
	const tool: ToolDefinition = {
		name,
		label: "Echo",
		description: "Echoes a value.",
		parameters: Type.Object({ value: Type.String() }),
		executionMode: mode,
		async execute(_id, params: { value: string }) {
			started.push(params.value);
			await new Promise<void>((resolve) => gates.set(params.value, resolve));
			return { content: [{ type: "text", text: `echoed ${params.value}` }], details: {} };
		},
	};
	const release = async (value: string) => {
		const open = await waitFor(() => gates.get(value), Boolean, { what: `${value} to start` });
		gates.delete(value);
		open!();
	};
	return { tool, started, release };
}

describe("createAgentSession without options", () => {
	it("uses the user's settings and models.json, the built-in tools, and the default system prompt with context files", async () => {
		const { cwd, home } = workspace();
		writeFileSync(join(home, "settings.json"), JSON.stringify({ provider: "local", model: "coder-1", thinking: "low" }));
		writeFileSync(
			join(home, "models.json"),
			JSON.stringify({ providers: { local: { baseUrl: server.openaiBaseUrl, apiKey: "local-key", models: [{ id: "coder-1" }] } } }),
		);
		writeFileSync(join(cwd, "AGENTS.md"), "Answer in one sentence.\n");
		const previous = process.env.LOOM_HOME;
		process.env.LOOM_HOME = home;
		const { session } = await createAgentSession({ cwd, sessionManager: SessionManager.inMemory() }).finally(() => {
			if (previous === undefined) delete process.env.LOOM_HOME;
			else process.env.LOOM_HOME = previous;
		});
		server.enqueue({ text: "Done." });

		await session.prompt("hello");

		expect(session.modelId).toBe("coder-1");
		expect(session.thinkingLevel).toBe("low");
		const request = server.requests[0]!;
		expect(request.body.model).toBe("coder-1");
		expect(request.headers.authorization).toBe("[redacted]");
		expect(toolNames(0)).toEqual(["read", "bash", "edit", "write"]);
		expect(systemOf(request)).toContain("You are loom, a coding agent");
		expect(systemOf(request)).toContain("Answer in one sentence.");
		expect(systemOf(request)).toContain(`Working directory: ${cwd}`);
		expect(session.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
		session.dispose();
	});
});

describe("createAgentSession's options mirror the command line", () => {
	it("takes a model as provider/id, with an endpoint and a key, a thinking level and a tool execution mode", async () => {
		const { session } = await scriptedSdkSession(server, { provider: undefined, model: "openai/gpt-x", thinkingLevel: "high", toolExecution: "sequential" });
		await session.prompt("hi");
		expect(server.requests[0]!.body.model).toBe("gpt-x");
		expect(session.thinkingLevel).toBe("high");
		expect(session.agent.toolExecution).toBe("sequential");
		session.dispose();
	});

	it("takes a Model object as is, whatever models.json knows", async () => {
		const model: Model = {
			id: "my-own-model",
			name: "Mine",
			api: "openai-completions",
			provider: "in-house",
			baseUrl: server.openaiBaseUrl,
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 32_000,
			maxTokens: 1000,
		};
		const { session } = await scriptedSdkSession(server, { provider: undefined, baseUrl: undefined, model });
		await session.prompt("hi");
		expect(server.requests[0]!.body.model).toBe("my-own-model");
		expect(session.model).toMatchObject({ provider: "in-house", contextWindow: 32_000 });
		session.dispose();
	});

	it("enables built-in tools by name (those off by default too) and tools of one's own by definition; an unknown name lists the known ones", async () => {
		const { tool } = gatedTool("lookup");
		const { session } = await scriptedSdkSession(server, { tools: ["read", "grep", tool] });
		await session.prompt("hi");
		expect(toolNames(0)).toEqual(["read", "grep", "lookup"]);
		session.dispose();

		const ws = workspace();
		const failed = createAgentSession(scriptedSdkOptions(server, ws, { tools: ["read", "teleport"] }));
		await expect(failed).rejects.toBeInstanceOf(SessionOptionError);
		await expect(failed).rejects.toThrow("tools: unknown tool teleport; choose from read,bash,edit,write,grep,find,ls.");
	});

	it("rejects a model or provider nobody knows, naming the option", async () => {
		const ws = workspace();
		const model = createAgentSession(scriptedSdkOptions(server, ws, { provider: undefined, model: "gpt-5.6-tera" }));
		await expect(model).rejects.toBeInstanceOf(SessionOptionError);
		await expect(model).rejects.toThrow('model: Unknown model "gpt-5.6-tera". Closest known: openai/gpt-5.6-terra.');
		const provider = createAgentSession(scriptedSdkOptions(server, ws, { provider: "nope" }));
		await expect(provider).rejects.toThrow('provider: Unknown provider "nope".');
	});

	it("replaces or extends the system prompt, and leaves context files out when asked", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "AGENTS.md"), "Project rule.\n");
		const replaced = await scriptedSdkSession(server, { systemPrompt: "You review code.", appendSystemPrompt: "Be brief.", contextFiles: false }, ws);
		await replaced.session.prompt("hi");
		const system = systemOf(server.requests[0]!);
		expect(system.startsWith("You review code.\n\nBe brief.")).toBe(true);
		expect(system).not.toContain("You are loom");
		expect(system).not.toContain("Project rule.");
		replaced.session.dispose();
	});
});

describe("SessionManager", () => {
	it("inMemory writes nothing; create writes a new file in loom home; open and continueRecent continue a file", async () => {
		const ws = workspace();
		const memory = await scriptedSdkSession(server, { sessionManager: SessionManager.inMemory() }, ws);
		await memory.session.prompt("remember nothing");
		expect(memory.session.sessionFile).toBeUndefined();
		expect(existsSync(join(ws.home, "sessions"))).toBe(false);
		memory.session.dispose();

		const created = await scriptedSdkSession(server, { sessionManager: SessionManager.create(ws.cwd) }, ws);
		await created.session.prompt("first");
		const file = created.session.sessionFile!;
		expect(file.startsWith(join(ws.home, "sessions"))).toBe(true);
		expect(readFileSync(file, "utf8")).toContain('"first"');
		created.session.dispose();

		const opened = await scriptedSdkSession(server, { sessionManager: SessionManager.open(file) }, ws);
		expect(opened.session.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
		await opened.session.prompt("second");
		opened.session.dispose();

		const recent = await scriptedSdkSession(server, { sessionManager: SessionManager.continueRecent(ws.cwd) }, ws);
		expect(recent.session.sessionFile).toBe(file);
		expect(recent.session.messages).toHaveLength(4);
		recent.session.dispose();
	});

	it("continueRecent starts a new session where the directory has none, and the manager's directory is the session's", async () => {
		const ws = workspace();
		const { session } = await createAgentSession({ ...scriptedSdkOptions(server, ws), cwd: undefined, sessionManager: SessionManager.continueRecent(ws.cwd) });
		expect(session.cwd).toBe(ws.cwd);
		expect(session.messages).toEqual([]);
		await session.prompt("hi");
		expect(readdirSync(join(ws.home, "sessions"))).toHaveLength(1);
		session.dispose();
	});
});

describe("the session from code", () => {
	it("subscribe returns a function that removes only that listener; prompt resolves once the run has settled", async () => {
		const { session } = await scriptedSdkSession(server);
		const first: string[] = [];
		const second: string[] = [];
		const unsubscribeFirst = session.subscribe((event) => void first.push(event.type));
		session.subscribe((event) => void second.push(event.type));
		await session.prompt("one");
		expect(second.at(-1)).toBe("run_end");
		expect(session.isStreaming).toBe(false);

		unsubscribeFirst();
		const seenByFirst = first.length;
		await session.prompt("two");
		expect(first).toHaveLength(seenByFirst);
		expect(second.filter((type) => type === "run_end")).toHaveLength(2);
		session.dispose();
	});

	it("session.agent.toolExecution = 'sequential' makes end order the source order, as seed 001 writes it", async () => {
		const parallel = gatedTool();
		const { session } = await scriptedSdkSession(server, { tools: [parallel.tool] });
		const ends: string[] = [];
		session.subscribe((event) => {
			if (event.type === "tool_execution_end") ends.push(event.toolCallId);
		});
		const twoCalls = {
			toolCalls: [
				{ id: "tool-1", name: "echo", arguments: { value: "first" } },
				{ id: "tool-2", name: "echo", arguments: { value: "second" } },
			],
		};
		server.enqueue(twoCalls, { text: "done" });
		const run = session.prompt("run both");
		await parallel.release("second");
		await parallel.release("first");
		await run;
		// Parallel: both started before either ended, and the second ended first.
		expect(parallel.started).toEqual(["first", "second"]);
		expect(ends).toEqual(["tool-2", "tool-1"]);

		session.agent.toolExecution = "sequential";
		ends.length = 0;
		parallel.started.length = 0;
		server.enqueue(twoCalls, { text: "done" });
		const sequential = session.prompt("again");
		await parallel.release("first");
		await parallel.release("second");
		await sequential;
		expect(ends).toEqual(["tool-1", "tool-2"]);
		session.dispose();
	});

	it("session.agent.beforeToolCall assigned directly blocks a call, and the model reads the reason", async () => {
		const { tool } = gatedTool();
		const { session } = await scriptedSdkSession(server, { tools: [tool] });
		session.agent.beforeToolCall = async ({ toolCall }) => ({ block: true, reason: `No ${toolCall.name} today; answer from memory.` });
		server.enqueue({ toolCalls: [{ id: "c1", name: "echo", arguments: { value: "x" } }] }, { text: "ok" });
		await session.prompt("echo x");
		const tool_ = server.requests[1]!.body.messages.find((message: any) => message.role === "tool");
		expect(tool_.content).toContain("No echo today; answer from memory.");
		session.dispose();
	});

	it("dispose() aborts the run, ends its commands' background jobs, removes every listener and closes the file", async () => {
		const ws = workspace();
		mkdirSync(join(ws.cwd, "out"));
		const pidFile = join(ws.cwd, "out", "sleeper.pid");
		const { session } = await scriptedSdkSession(server, { sessionManager: SessionManager.create(ws.cwd) }, ws);
		const events: SessionEvent["type"][] = [];
		session.subscribe((event) => void events.push(event.type));
		server.enqueue(
			{ toolCalls: [{ id: "bg", name: "bash", arguments: { command: `sleep 60 & echo $! > ${pidFile}; echo started` } }] },
			{ toolCalls: [{ id: "fg", name: "bash", arguments: { command: "sleep 60" } }] },
			{ text: "never" },
		);
		const run = session.prompt("start things");
		await waitFor(() => events.filter((type) => type === "tool_execution_start").length === 2, Boolean, { what: "the second command to start" });
		const sleeper = Number(readFileSync(pidFile, "utf8"));
		expect(alive(sleeper)).toBe(true);

		session.dispose();
		const seen = events.length;
		const saved = readFileSync(session.sessionFile!, "utf8");
		await run;
		await waitFor(() => !alive(sleeper), Boolean, { what: "the background job to end" });
		await sleep(50);
		expect(session.agent.state.isStreaming).toBe(false);
		expect(events).toHaveLength(seen);
		// Nothing of the aborted run reaches the closed file.
		expect(readFileSync(session.sessionFile!, "utf8")).toBe(saved);
	});
});

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

describe("createAgentSession's ui", () => {
	it("tells the given ui, and asks nothing of a ui that cannot answer", async () => {
		const ui = recordingUi();
		const { session } = await scriptedSdkSession(server, { ui, extensions: [(loom) => loom.notify("ready", "info")] });
		expect(session.ui).toBe(ui);
		expect(ui.notices).toEqual(["info: ready"]);
		session.dispose();
	});
});
