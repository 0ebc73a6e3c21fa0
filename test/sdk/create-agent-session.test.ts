// createAgentSession against the scripted model server: the defaults a user gets without options, options that
// mirror the command line, where the conversation is kept, and the session's contract for code embedding it.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { describe, expect, it, vi } from "vitest";
import type { Model, ToolDefinition } from "../../src/core/index.js";
import type { SessionEvent } from "../../src/core/session/index.js";
import { createAgentSession } from "../../src/sdk/create-agent-session.js";
import { SessionManager } from "../../src/sdk/session-manager.js";
import { SessionOptionError } from "../../src/sdk/session-option-error.js";
import { systemOf } from "../core/session/compaction/server-model.js";
import { everythingStdio, everythingWithPid, pidIn, processesGone, waitForPid } from "../support/mcp-servers.js";
import { ScriptedUi } from "../support/scripted-ui.js";
import { scriptedSdkOptions, scriptedSdkSession } from "../support/sdk-session.js";
import { isRunning } from "../support/process-state.js";
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
		expect(toolNames(0)).toEqual(["read", "bash", "edit", "write", "bash_output", "bash_kill", "ask_user", "todo_write", "task"]);
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
		await expect(failed).rejects.toThrow("tools: unknown tool teleport; choose from read,bash,edit,write,grep,find,ls,bash_output,bash_kill,ask_user,todo_write,web_fetch,web_search,lsp,task.");
	});

	it("rejects a model or provider it cannot find, as the command line does, naming the option and the closest known models", async () => {
		const ws = workspace();
		const typo = createAgentSession(scriptedSdkOptions(server, ws, { provider: undefined, model: "gpt-5.6-tera" }));
		await expect(typo).rejects.toBeInstanceOf(SessionOptionError);
		await expect(typo).rejects.toMatchObject({ option: "model", problem: expect.stringMatching(/^Unknown model "gpt-5\.6-tera"\. Closest known: openai\/gpt-5\.6-terra\. /) });
		const provider = createAgentSession(scriptedSdkOptions(server, ws, { provider: "nowhere", model: undefined }));
		await expect(provider).rejects.toMatchObject({ option: "provider", problem: expect.stringMatching(/^Unknown provider "nowhere"\. Known providers: anthropic, openai, google, chatgpt, github-copilot\./) });
		const prefixed = createAgentSession(scriptedSdkOptions(server, ws, { provider: undefined, model: "nope/x" }));
		await expect(prefixed).rejects.toMatchObject({ option: "model", problem: expect.stringMatching(/^Unknown provider "nope" in "nope\/x"/) });
		expect(server.requests).toHaveLength(0);
	});

	it("without a key, says to set the provider's variable or pass the apiKey option (not a command-line flag)", async () => {
		const ws = workspace();
		writeFileSync(join(ws.home, "models.json"), JSON.stringify({ providers: { rented: { baseUrl: server.openaiBaseUrl, apiKey: "$LOOM_TEST_UNSET_KEY", models: [{ id: "m" }] } } }));
		const { session } = await createAgentSession(scriptedSdkOptions(server, ws, { provider: undefined, model: "rented/m", apiKey: undefined }));
		expect(session.modelError).toBe(`No API key for provider "rented": ${join(ws.home, "models.json")} reads it from LOOM_TEST_UNSET_KEY, which is not set. Set LOOM_TEST_UNSET_KEY or pass the apiKey option.`);
		await expect(session.runPrompt("hi")).rejects.toThrow("or pass the apiKey option.");
		session.dispose();
		vi.stubEnv("GEMINI_API_KEY", "");
		vi.stubEnv("GOOGLE_API_KEY", "");
		const google = await createAgentSession(scriptedSdkOptions(server, ws, { provider: "google", model: "gemini-x", apiKey: undefined, baseUrl: undefined }));
		vi.unstubAllEnvs();
		expect(google.session.modelError).toBe('No API key for provider "google": set GEMINI_API_KEY (or GOOGLE_API_KEY) or pass the apiKey option.');
		google.session.dispose();
		expect(server.requests).toHaveLength(0);
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

describe("the user's own shell commands (runUserCommand)", () => {
	it("run as bash runs the model's: live and bounded output, the key masked, background jobs ended with the session", async () => {
		const ws = workspace();
		const { session } = await scriptedSdkSession(server, { apiKey: "sk-user-command-key" }, ws);
		const updates: string[] = [];
		const masked = await session.runUserCommand("echo key=sk-user-command-key; sleep 60 & echo $! > bg.pid", { onUpdate: (output) => updates.push(output) });
		expect(masked).toEqual({ output: "key=***", exitCode: 0 });
		expect(updates.join("")).not.toContain("sk-user-command-key");
		const long = await session.runUserCommand("seq 1 3000", { onUpdate: (output) => updates.push(output) });
		// The end of a long output, saying where all of it is.
		expect(long.output).toMatch(/^1001\n[\s\S]*\n3000\n\n\[Output cut: showing the last 2000 lines .* Full output: \S+\]$/);
		// Live: the latest lines only.
		expect(updates.length).toBeGreaterThan(0);
		expect(updates.every((output) => output.split("\n").length <= 50)).toBe(true);
		expect(await session.runUserCommand("exit 3")).toEqual({ output: "", exitCode: 3 });

		const background = Number(readFileSync(join(ws.cwd, "bg.pid"), "utf8"));
		expect(alive(background)).toBe(true);
		session.dispose();
		expect(await waitFor(() => !alive(background), Boolean, { what: "the background job to end" })).toBe(true);
	});

	it("stop when aborted, with everything they started", async () => {
		const ws = workspace();
		const { session } = await scriptedSdkSession(server, {}, ws);
		const abort = new AbortController();
		const run = session.runUserCommand("echo $$ > shell.pid; sleep 60 & sleep 60", { signal: abort.signal });
		const shell = await waitFor(() => (existsSync(join(ws.cwd, "shell.pid")) ? Number(readFileSync(join(ws.cwd, "shell.pid"), "utf8")) : 0));
		abort.abort();
		expect(await run).toMatchObject({ exitCode: null });
		expect(await waitFor(() => !alive(shell) && !groupAlive(shell), Boolean, { what: "the command's group to end" })).toBe(true);
		session.dispose();
	});
});

function groupAlive(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch {
		return false;
	}
}

/** Running: an orphan's zombie, waiting for PID 1 to reap it, counts as ended. */
const alive = isRunning;

describe("createAgentSession's MCP servers", () => {
	it("starts mcpConfig's servers; the tool choice names their tools while they start; dispose() closes them", async () => {
		const ws = workspace();
		const pidFile = join(ws.cwd, "server.pid");
		const mcpConfig = [JSON.stringify({ mcpServers: { everything: everythingWithPid(pidFile) } })];
		const { session } = await scriptedSdkSession(server, { mcpConfig, tools: ["read", "mcp__everything__get-s*"] }, ws);
		await session.prompt("hi");
		expect(toolNames(0)).toEqual(["read", "mcp__everything__get-structured-content", "mcp__everything__get-sum"]);
		const pid = pidIn(pidFile);
		expect(alive(pid)).toBe(true);
		session.dispose();
		expect(await processesGone([pid])).toBe(true);
	});

	it("a project's servers wait with its extensions for the one trust question, and start on a yes", async () => {
		const ws = workspace();
		mkdirSync(join(ws.cwd, ".loom", "extensions"), { recursive: true });
		writeFileSync(join(ws.cwd, ".loom", "extensions", "noop.js"), "export default function () {}\n");
		const pidFile = join(ws.cwd, "server.pid");
		// A token written in the server's arguments (sh's $0 and $1 here, which the script ignores).
		const local = everythingWithPid(pidFile);
		const token = "ghp_argtoken0123456789";
		writeFileSync(join(ws.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { local: { ...local, args: [...(local.args as string[]), "--token", token] }, other: everythingStdio() } }));
		const ui = new ScriptedUi().choose("Yes");
		const listed: string[] = [];
		const select = ui.select.bind(ui);
		ui.select = (options, choices) => {
			listed.push(...(options.body ?? []).map((line) => line.text.trim()));
			return select(options, choices);
		};
		const { session } = await scriptedSdkSession(server, { ui, tools: ["read", "mcp__local__echo"] }, ws);
		await waitForPid(pidFile);
		expect(ui.titles()).toEqual(["Trust this project folder?"]);
		// `other` is named by no chosen tool, so it is not asked about.
		// The server is named with its command and arguments (a shell running the everything server here), the token masked.
		expect(listed.slice(1, -1)).toEqual([expect.stringMatching(/^\.mcp\.json server local: sh -c .*server-everything.* stdio' --token '\*\*\*'$/), join(".loom", "extensions", "noop.js")]);
		expect(listed.join("\n")).not.toContain(token);
		await session.prompt("hi");
		expect(toolNames(0)).toEqual(["read", "mcp__local__echo"]);
		session.dispose();
	});
});

describe("createAgentSession's ui", () => {
	it("tells the given ui, and asks nothing of a ui that cannot answer", async () => {
		const ui = new ScriptedUi({ interactive: false });
		const { session } = await scriptedSdkSession(server, { ui, extensions: [(loom) => loom.notify("ready", "info")] });
		expect(session.ui).toBe(ui);
		expect(ui.noticeLines()).toEqual(["info: ready"]);
		session.dispose();
	});
});
