// Subagents: the task tool starts child sessions (agent definitions from .claude/agents read as they are), which
// run in parallel, return their answers in the model's order, add what they spent to the parent's totals, write
// session files of their own linked from the parent's, stop with the parent, and start no grandchildren.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/core/session/index.js";
import { loadSessionFile } from "../../src/core/session/index.js";
import { exportSessionFile } from "../../src/plugs/export/export-session.js";
import { SessionManager } from "../../src/sdk/session-manager.js";
import type { RecordedRequest } from "../support/scripted-model-server.mjs";
import { scriptedSdkSession } from "../support/sdk-session.js";
import { ScriptedUi } from "../support/scripted-ui.js";
import { workspace } from "../support/temp-dir.js";
import { useScriptedServer } from "../support/use-scripted-server.js";
import { waitFor } from "../support/wait-for.js";

const server = useScriptedServer();

/** Claude Code's own format: tools as a comma-separated string of its tool names, one loom lacks. */
const EXPLORER = `---
name: explorer
description: Reads the codebase and reports what it found, without changing anything.
tools: Read, Grep, Glob, NotebookEdit
model: inherit
---
You are an explorer. Read, never write. Report in three lines.
`;

function projectWithExplorer() {
	const ws = workspace();
	mkdirSync(join(ws.cwd, ".claude", "agents"), { recursive: true });
	writeFileSync(join(ws.cwd, ".claude", "agents", "explorer.md"), EXPLORER);
	return ws;
}

/** The first user message's text of a request (OpenAI Chat Completions body). */
function firstPrompt(body: any): string {
	const user = (body.messages as { role: string; content: unknown }[]).find((message) => message.role === "user");
	const content = user?.content;
	return typeof content === "string" ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? "").join("") : "";
}

/** A git repository in `cwd` whose one commit holds `file`; runs git there. */
function committedRepository(cwd: string, file: string, content: string): (...args: string[]) => string {
	const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });
	git("init", "--quiet");
	writeFileSync(join(cwd, file), content);
	git("add", ".");
	git("commit", "--quiet", "-m", "start");
	return git;
}

function systemOf(request: RecordedRequest): string {
	const messages = request.body.messages as { role: string; content: string }[];
	return messages.find((message) => message.role === "system" || message.role === "developer")?.content ?? "";
}

function toolNames(request: RecordedRequest): string[] {
	return (request.body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name);
}

/** The tool results of a request, in its order. */
function toolResults(request: RecordedRequest): { id: string; text: string }[] {
	return (request.body.messages as { role: string; tool_call_id?: string; content: unknown }[])
		.filter((message) => message.role === "tool")
		.map((message) => ({ id: message.tool_call_id ?? "", text: JSON.stringify(message.content) }));
}

describe("the task tool", () => {
	it("runs two explorer children at once and returns their answers in the model's order, tagged, linked and counted", async () => {
		const ws = projectWithExplorer();
		const { session, ui } = await scriptedSdkSession(server, { trustProject: true, sessionManager: SessionManager.create(ws.cwd) }, ws);
		let releaseAlpha!: () => void;
		const alphaHeld = new Promise<void>((resolve) => (releaseAlpha = resolve));
		let alphaInFlight = false;
		let betaWhileAlphaInFlight = false;
		server.setResponder(async (body) => {
			const prompt = firstPrompt(body);
			if (prompt === "explore both") {
				if ((body.messages as { role: string }[]).some((message) => message.role === "tool")) return { text: "both explored" };
				return {
					toolCalls: [
						{ id: "call-alpha", name: "task", arguments: { agent: "explorer", description: "alpha", prompt: "look at alpha" } },
						{ id: "call-beta", name: "task", arguments: { agent: "explorer", description: "beta", prompt: "look at beta" } },
					],
					usage: { input: 100, output: 10 },
				};
			}
			if (prompt === "look at alpha") {
				alphaInFlight = true;
				// Held until beta's call has ended: with the calls run one after the other, beta comes only after the bound.
				await Promise.race([alphaHeld, new Promise((resolve) => setTimeout(resolve, 15_000))]);
				alphaInFlight = false;
				return { text: "alpha summary", usage: { input: 1000, output: 20 } };
			}
			if (prompt === "look at beta") {
				betaWhileAlphaInFlight = alphaInFlight;
				return { text: "beta summary", usage: { input: 2000, output: 30 } };
			}
			return undefined;
		});
		const events: SessionEvent[] = [];
		session.subscribe((event) => {
			events.push(event);
			if (event.type === "tool_execution_end" && event.toolCallId === "call-beta") releaseAlpha();
		});

		const outcome = await session.runPrompt("explore both");

		expect(outcome.status).toBe("done");
		expect(betaWhileAlphaInFlight).toBe(true);
		const ends = events.flatMap((event) => (event.type === "tool_execution_end" ? [event.toolCallId] : []));
		expect(ends).toEqual(["call-beta", "call-alpha"]);
		const last = server.requests.at(-1)!;
		expect(firstPrompt(last.body)).toBe("explore both");
		const results = toolResults(last);
		expect(results.map((result) => result.id)).toEqual(["call-alpha", "call-beta"]);
		expect(results[0]!.text).toContain("alpha summary");
		expect(results[1]!.text).toContain("beta summary");

		// The child: its definition's instructions, Claude Code's tools mapped onto loom's, no task tool (depth 1).
		const alphaRequest = server.requests.find((request) => firstPrompt(request.body) === "look at alpha")!;
		expect(systemOf(alphaRequest)).toContain("You are an explorer.");
		expect(toolNames(alphaRequest).sort()).toEqual(["find", "grep", "read"]);
		expect(toolNames(server.requests[0]!)).toContain("task");
		expect(JSON.stringify(server.requests[0]!.body.tools)).toContain("explorer: Reads the codebase");
		expect(session.loadWarnings.join("\n")).toContain("loom has no tool NotebookEdit");

		// The children's events reach the parent tagged with the call that started them.
		const tagged = events.filter((event): event is Extract<SessionEvent, { type: "subagent_event" }> => event.type === "subagent_event");
		expect(new Set(tagged.map((event) => event.toolCallId))).toEqual(new Set(["call-alpha", "call-beta"]));
		expect(tagged.every((event) => event.agent === "explorer")).toBe(true);
		expect(tagged.some((event) => event.toolCallId === "call-beta" && event.event.type === "message_end")).toBe(true);

		// What the children spent counts in the parent's totals.
		expect(session.usageTotals.input).toBeGreaterThanOrEqual(100 + 1000 + 2000);
		expect(session.usageTotals.output).toBeGreaterThanOrEqual(10 + 20 + 30);

		// Each child wrote its own session file, linked from the parent's tool result.
		const parent = await loadSessionFile(session.sessionFile!);
		const linked = parent.entries.flatMap((entry) =>
			entry.type === "message" && entry.message.role === "toolResult" ? [(entry.message.details as { subagent: { sessionFile: string } }).subagent.sessionFile] : [],
		);
		expect(linked).toHaveLength(2);
		// Beside the parent's file, so the directory's list (-r, /resume, -c) shows the parent alone, with its count.
		expect(linked.every((file) => file.startsWith(`${session.sessionFile!.replace(/\.jsonl$/, "")}.subagents/`))).toBe(true);
		expect(session.listSessions().map((info) => [info.file, info.subagents])).toEqual([[session.sessionFile, 2]]);
		expect(session.tree().rows.map((row) => [row.text, row.subagents])).toEqual([["explore both", 2]]);
		const alphaFile = await loadSessionFile(linked[0]!);
		expect(JSON.stringify(alphaFile.entries)).toContain("alpha summary");
		// The exported page shows each child's conversation folded inside its task call.
		const page = readFileSync(await exportSessionFile(session.sessionFile!, join(ws.cwd, "page.html"), { cwd: ws.cwd }), "utf8");
		expect(page.match(/<details class="subagent"><summary>Subagent explorer · session /g)).toHaveLength(2);
		expect(page).toContain("look at alpha");
		expect(page).toContain(linked[1]!);
		expect(ui.noticeLines().filter((line) => line.startsWith("error"))).toEqual([]);
		session.dispose();

		// A session file whose link names a file outside its subagents folder gets the link's line, not that file.
		const elsewhere = join(ws.cwd, "elsewhere.jsonl");
		writeFileSync(elsewhere, readFileSync(linked[0]!));
		const crafted = session.sessionFile!;
		const original = readFileSync(crafted, "utf8");
		writeFileSync(crafted, original.replaceAll(JSON.stringify(linked[0]!), JSON.stringify(elsewhere)));
		const craftedPage = readFileSync(await exportSessionFile(crafted, join(ws.cwd, "crafted.html"), { cwd: ws.cwd }), "utf8");
		expect(craftedPage).toContain(elsewhere);
		expect(craftedPage.match(/<details class="subagent"><summary>Subagent explorer · session /g)).toHaveLength(1);
		writeFileSync(crafted, original);

		// Resumed, the parent goes on from the children's answers: no child runs again.
		const resumed = await scriptedSdkSession(server, { trustProject: true, sessionManager: SessionManager.open(parent.file) }, ws);
		const before = server.requests.length;
		server.setResponder(() => ({ text: "still explored" }));
		expect((await resumed.session.runPrompt("and now?")).status).toBe("done");
		expect(server.requests.length).toBe(before + 1);
		expect(toolResults(server.requests.at(-1)!).map((result) => result.id)).toEqual(["call-alpha", "call-beta"]);
		resumed.session.dispose();
	});

	it("stops the child when the parent is aborted, leaving both session files complete", async () => {
		const ws = projectWithExplorer();
		const { session } = await scriptedSdkSession(server, { trustProject: true, sessionManager: SessionManager.create(ws.cwd) }, ws);
		server.setResponder((body) => {
			const prompt = firstPrompt(body);
			if (prompt === "explore") return { toolCalls: [{ id: "call-1", name: "task", arguments: { agent: "explorer", prompt: "read forever" } }] };
			if (prompt === "read forever") return { text: "reading ", endless: true, chunkDelayMs: 10 };
			return undefined;
		});
		const childFiles: string[] = [];
		session.subscribe((event) => {
			if (event.type === "subagent_event" && event.event.type === "session_open" && event.event.file) childFiles.push(event.event.file);
		});
		const run = session.runPrompt("explore");
		await server.waitForRequests(2);
		await waitFor(() => childFiles.length, (count) => count === 1, { what: "the child's session to open" });
		await session.abort();
		const outcome = await run;

		expect(outcome.status).toBe("aborted");
		const parent = await loadSessionFile(session.sessionFile!);
		const parentMessages = parent.entries.flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
		const result = parentMessages.find((message) => message.role === "toolResult");
		expect(result).toMatchObject({ toolCallId: "call-1", isError: true });
		const child = await loadSessionFile(childFiles[0]!);
		const childMessages = child.entries.flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
		expect(childMessages.map((message) => message.role)).toEqual(["user", "assistant"]);
		expect(childMessages[1]).toMatchObject({ stopReason: "aborted" });
		expect(child.warnings).toEqual([]);
		// Nothing is still asking the server once both have stopped.
		const before = server.requests.length;
		await session.waitForIdle();
		expect(server.requests.length).toBe(before);
		session.dispose();
	});

	it("asks the parent's user, with the child's name, before a child's change in ask mode; a no refuses it in the child", async () => {
		const ws = workspace();
		const ui = new ScriptedUi().choose("Allow once", /^No/);
		const { session } = await scriptedSdkSession(server, { approval: "ask", ui }, ws);
		server.setResponder((body) => {
			const prompt = firstPrompt(body);
			const results = toolResults({ body } as RecordedRequest);
			if (prompt === "write both") {
				return results.length === 0 ? { toolCalls: [{ id: "call-w", name: "task", arguments: { prompt: "write a.txt and b.txt" } }] } : { text: "written" };
			}
			if (prompt === "write a.txt and b.txt") {
				if (results.length === 0) return { toolCalls: [{ id: "w1", name: "write", arguments: { path: "a.txt", content: "a" } }] };
				if (results.length === 1) return { toolCalls: [{ id: "w2", name: "write", arguments: { path: "b.txt", content: "b" } }] };
				return { text: `child saw: ${results[1]!.text}` };
			}
			return undefined;
		});
		expect((await session.runPrompt("write both")).status).toBe("done");
		expect(ui.titles()).toHaveLength(2);
		expect(ui.titles().every((title) => title.startsWith("general: "))).toBe(true);
		expect(existsSync(join(ws.cwd, "a.txt"))).toBe(true);
		expect(existsSync(join(ws.cwd, "b.txt"))).toBe(false);
		// The task call itself was not asked about: only the child's own calls were.
		expect(ui.asked.some((question) => question.options.approval?.toolName === "task")).toBe(false);
		session.dispose();
	});

	it("keeps what a child changed in the parent's tree in the parent's checkpoint: a rewind of the prompt undoes it", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "notes.txt"), "old\n");
		const ui = new ScriptedUi();
		const { session } = await scriptedSdkSession(server, { sessionManager: SessionManager.create(ws.cwd), ui }, ws);
		server.setResponder((body) => {
			const prompt = firstPrompt(body);
			const results = toolResults({ body } as RecordedRequest);
			if (prompt === "delegate the notes") {
				return results.length === 0 ? { toolCalls: [{ id: "call-n", name: "task", arguments: { prompt: "rewrite the notes" } }] } : { text: "delegated" };
			}
			if (prompt === "rewrite the notes") {
				if (results.length > 0) return { text: "rewritten" };
				return {
					toolCalls: [
						{ id: "n1", name: "write", arguments: { path: "notes.txt", content: "new\n" } },
						{ id: "n2", name: "write", arguments: { path: "made.txt", content: "made\n" } },
					],
				};
			}
			return undefined;
		});
		// The parent's own only call is task, which changes nothing itself.
		expect((await session.runPrompt("delegate the notes")).status).toBe("done");
		expect(readFileSync(join(ws.cwd, "notes.txt"), "utf8")).toBe("new\n");

		ui.choose("delegate the notes", "Files only");
		const notices: string[] = [];
		await session.commands.get("rewind")!.handler("", { session, busy: false, ui, notify: (_level, text) => notices.push(text) });
		expect(readFileSync(join(ws.cwd, "notes.txt"), "utf8")).toBe("old\n");
		expect(existsSync(join(ws.cwd, "made.txt"))).toBe(false);
		session.dispose();
	});

	it("runs a writer in a worktree of its own: the parent's tree stays as it was until /merge brings the branch in", async () => {
		const ws = workspace();
		const git = committedRepository(ws.cwd, "README.md", "old\n");
		const { session } = await scriptedSdkSession(server, {}, ws);
		let childInWorktree = false;
		server.setResponder((body) => {
			const prompt = firstPrompt(body);
			const results = toolResults({ body } as RecordedRequest);
			if (prompt === "change the docs") {
				return results.length === 0
					? { toolCalls: [{ id: "call-wt", name: "task", arguments: { description: "docs", prompt: "rewrite README.md", isolation: "worktree" } }] }
					: { text: "done" };
			}
			if (prompt === "rewrite README.md") {
				childInWorktree ||= systemOf({ body } as RecordedRequest).includes("worktrees");
				if (results.length === 0) return { toolCalls: [{ id: "w", name: "write", arguments: { path: "README.md", content: "new\n" } }] };
				return { text: "README rewritten" };
			}
			return undefined;
		});
		const events: SessionEvent[] = [];
		session.subscribe((event) => void events.push(event));

		expect((await session.runPrompt("change the docs")).status).toBe("done");

		expect(readFileSync(join(ws.cwd, "README.md"), "utf8")).toBe("old\n");
		expect(git("status", "--porcelain")).toBe("");
		const end = events.find((event) => event.type === "tool_execution_end" && event.toolCallId === "call-wt") as Extract<SessionEvent, { type: "tool_execution_end" }>;
		const worktree = end.result.details.subagent.worktree as { branch: string; diffStat: string };
		expect(worktree.branch).toBe("loom/docs");
		expect(worktree.diffStat).toContain("README.md");
		expect(toolResults(server.requests.at(-1)!)[0]!.text).toContain("/merge loom/docs");
		// The child worked under loom's home, on the branch; its folder is gone, the branch holds the work.
		expect(childInWorktree).toBe(true);
		expect(git("worktree", "list")).not.toContain("loom-docs");
		expect(git("show", "loom/docs:README.md")).toBe("new\n");

		const notices: string[] = [];
		await session.commands.get("worktrees")!.handler("", { session, busy: false, notify: (_level, text) => notices.push(text) });
		expect(notices[0]).toContain("loom/docs");
		await session.commands.get("merge")!.handler("loom/docs", { session, busy: false, notify: (_level, text) => notices.push(text) });
		expect(readFileSync(join(ws.cwd, "README.md"), "utf8")).toBe("new\n");
		expect(git("branch", "--list", "loom/*")).toBe("");
		session.dispose();
	});

	it("a worktree child's answer survives its worktree failing to finish, and files git ignores are reported where they were kept", async () => {
		const ws = workspace();
		committedRepository(ws.cwd, ".gitignore", ".env.local\n");
		const { session } = await scriptedSdkSession(server, {}, ws);
		server.setResponder((body) => {
			const prompt = firstPrompt(body);
			const results = toolResults({ body } as RecordedRequest);
			if (prompt === "delegate") {
				const task = (name: string) => ({ id: `call-${name}`, name: "task", arguments: { description: name, prompt: name, isolation: "worktree" } });
				return results.length === 0 ? { toolCalls: [task("kept"), task("broken")] } : { text: "done" };
			}
			if (results.length === 0) return { toolCalls: [{ id: "w", name: "write", arguments: { path: ".env.local", content: "KEY=1\n" } }] };
			// The child's work is done; its worktree stops being one, so committing it fails.
			if (prompt === "broken") writeFileSync(join(ws.home, "worktrees", "project", "loom-broken", ".git"), "gitdir: /nowhere\n");
			return { text: `answer of ${prompt}` };
		});

		expect((await session.runPrompt("delegate")).status).toBe("done");
		const [kept, broken] = toolResults(server.requests.at(-1)!).map((result) => result.text);
		expect(kept).toContain("answer of kept");
		const folder = /out of the worktree to (\S+?):/.exec(kept)?.[1];
		expect(folder, kept).toBeDefined();
		expect(readFileSync(join(folder!, ".env.local"), "utf8")).toBe("KEY=1\n");

		expect(broken).toContain("answer of broken");
		expect(broken).toContain("could not be committed");
		expect(readFileSync(join(ws.home, "worktrees", "project", "loom-broken", ".env.local"), "utf8")).toBe("KEY=1\n");
		session.dispose();
	});

	it("a definition's approval mode can make its child stricter than the parent, never looser", async () => {
		const ws = workspace();
		mkdirSync(join(ws.cwd, ".loom", "agents"), { recursive: true });
		writeFileSync(join(ws.cwd, ".loom", "agents", "loose.md"), "---\ndescription: Writes freely.\napproval: auto\n---\nWrite.\n");
		writeFileSync(join(ws.cwd, ".loom", "agents", "strict.md"), "---\ndescription: Only reads.\napproval: read-only\n---\nRead.\n");
		const written = (results: { text: string }[]) => results.at(-1)?.text ?? "";
		const seen: Record<string, string> = {};
		server.setResponder((body) => {
			const prompt = firstPrompt(body);
			const results = toolResults({ body } as RecordedRequest);
			if (prompt.startsWith("go ")) {
				const agent = prompt.slice(3);
				return results.length === 0 ? { toolCalls: [{ name: "task", arguments: { agent, prompt: `write as ${agent}` } }] } : { text: "ok" };
			}
			if (prompt.startsWith("write as ")) {
				if (results.length === 0) return { toolCalls: [{ name: "write", arguments: { path: `${prompt.slice(9)}.txt`, content: "x" } }] };
				seen[prompt.slice(9)] = written(results);
				return { text: "tried" };
			}
			return undefined;
		});
		const parentReadOnly = await scriptedSdkSession(server, { trustProject: true, approval: "read-only" }, ws);
		await parentReadOnly.session.runPrompt("go loose");
		parentReadOnly.session.dispose();
		const parentAuto = await scriptedSdkSession(server, { trustProject: true }, ws);
		await parentAuto.session.runPrompt("go strict");
		parentAuto.session.dispose();
		expect(seen.loose).toContain("read-only mode");
		expect(seen.strict).toContain("read-only mode");
		expect(existsSync(join(ws.cwd, "loose.txt")) || existsSync(join(ws.cwd, "strict.txt"))).toBe(false);
	});

	it("@name at the start of a prompt tells the model to hand the request to that agent; other @words are left alone", async () => {
		const ws = projectWithExplorer();
		const { session } = await scriptedSdkSession(server, { trustProject: true }, ws);
		server.enqueue({ text: "ok" }, { text: "ok" });
		await session.runPrompt("@explorer how does the parser recover?");
		await session.runPrompt("@src/parser.ts looks odd");
		const said = (index: number) => JSON.stringify(server.requests[index]!.body.messages.at(-1));
		expect(said(0)).toContain('call the task tool once with agent \\"explorer\\"');
		expect(said(1)).not.toContain("call the task tool");
		session.dispose();
	});

	it("is not offered at all with subagents.maxDepth 0", async () => {
		const { session } = await scriptedSdkSession(server, { settings: { subagents: { maxDepth: 0 } } });
		expect(session.tools.map((tool) => tool.name)).not.toContain("task");
		session.dispose();
	});
});
