// The approval policy on a real AgentSession: the question through SessionUi, the answers and what the model
// reads of them, events for the screen, /approval, the project's settings, and secrets kept out of results.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { ToolDefinition, ToolResultMessage } from "../../../src/core/index.js";
import { loadModelRegistry } from "../../../src/core/ai/index.js";
import { AgentSession, type SessionEvent, type SessionUi, SessionStore } from "../../../src/core/session/index.js";
import { type Settings } from "../../../src/core/config/settings.js";
import { type ApprovalPolicy, installApprovalPolicy, secretMask } from "../../../src/plugs/policy/index.js";
import { createEditTool, createWriteTool } from "../../../src/tools/index.js";
import { assistant, call, scriptedStream, text, type Turn } from "../../core/support/scripted-stream.js";
import { ScriptedUi } from "../../support/scripted-ui.js";
import { tempDir } from "../../support/temp-dir.js";

/** A shell tool that runs nothing: it says what it would have run, so these tests start no process. */
function fakeShell(output: (command: string) => string = (command) => `ran: ${command}`): ToolDefinition {
	return {
		name: "bash",
		label: "bash",
		description: "runs a command",
		parameters: Type.Object({ command: Type.String() }),
		executionMode: "sequential",
		shellCommand: (args) => (args as { command: string }).command,
		execute: async (_id, params) => ({ content: [text(output((params as { command: string }).command))], details: undefined }),
	};
}

/** Answers each question with the next value given ("once", "session", "deny", or undefined for Esc), then with Esc. */
function scriptedUi(answers: (string | undefined)[], reasons: (string | undefined)[] = []): ScriptedUi {
	const values = answers.map((answer) => (answer === undefined ? undefined : () => answer));
	return new ScriptedUi({ dismissWhenOut: true }).choose(...values).type(...reasons);
}

interface Setup {
	turns: Turn[];
	tools?: (cwd: string) => ToolDefinition[];
	settings?: Settings;
	project?: Settings;
	flags?: { approval?: "auto" | "ask" | "read-only"; allow?: string[]; deny?: string[] };
	env?: NodeJS.ProcessEnv;
	ui?: SessionUi;
}

function setUp(setup: Setup) {
	const root = tempDir("loom-approval-");
	const cwd = join(root, "project");
	const home = join(root, "home");
	mkdirSync(join(cwd, ".git"), { recursive: true });
	mkdirSync(home);
	if (setup.project) {
		mkdirSync(join(cwd, ".loom"));
		writeFileSync(join(cwd, ".loom", "settings.json"), JSON.stringify(setup.project));
	}
	const stream = scriptedStream(setup.turns);
	const session = new AgentSession({
		cwd,
		home,
		store: SessionStore.create({ home, cwd }),
		createStore: () => SessionStore.create({ home, cwd }),
		models: loadModelRegistry(home, {}),
		selection: { provider: "openai", modelId: "scripted-model", baseUrl: "http://127.0.0.1:1", apiKey: "test-key" },
		streamFn: stream.streamFn,
		systemPrompt: "You are a test.",
		tools: setup.tools ? setup.tools(cwd) : [fakeShell()],
	});
	if (setup.ui) session.setUi(setup.ui);
	const policy: ApprovalPolicy = installApprovalPolicy(session, {
		flags: setup.flags,
		settings: setup.settings ?? {},
		settingsFile: join(home, "settings.json"),
		secrets: secretMask(setup.env ?? {}, ["sk-configured-key-0123456789"]),
		home,
	});
	const events: SessionEvent[] = [];
	session.subscribe((event) => {
		events.push(event);
	});
	const results = () =>
		events.flatMap((event) => (event.type === "message_end" && event.message.role === "toolResult" ? [event.message as ToolResultMessage] : []));
	const resultText = (index: number) => results()[index]?.content.map((part) => (part.type === "text" ? part.text : "")).join("");
	return { session, policy, stream, events, results, resultText, cwd, home };
}

const ask = { approval: "ask" as const };

describe("asking the user", () => {
	it("shows the command and runs it once allowed, the row told first that it waits for approval", async () => {
		const ui = scriptedUi(["once"]);
		const { session, events, resultText } = setUp({ turns: [assistant([call("c1", "bash", { command: "npm test && git status" })], "toolUse")], flags: ask, ui });
		await session.runPrompt("go");
		expect(ui.asked[0].options.title).toBe("Allow bash to run this command?");
		expect(ui.asked[0].options.body).toEqual([{ text: "npm test && git status", style: "plain" }]);
		expect(ui.asked[0].choices.map((choice) => choice.label)).toEqual(["Allow once", "Allow for this session", "Deny, and say why (optional)"]);
		expect(ui.asked[0].choices[1].description).toBe("bash(npm test *), bash(git status *)");
		// Marked, so RPC and ACP can ask it their own way.
		expect(ui.asked[0].options.approval).toEqual({ toolCallId: "c1", toolName: "bash" });
		expect(ui.asked[0].choices.map((choice) => choice.value)).toEqual(["once", "session", "deny"]);
		expect(resultText(0)).toBe("ran: npm test && git status");
		const order = events.map((event) => event.type).filter((type) => type.startsWith("tool_execution") || type.startsWith("tool_approval"));
		expect(order).toEqual(["tool_execution_start", "tool_approval_requested", "tool_approval_resolved", "tool_execution_running", "tool_execution_end"]);
		// The session's state of the call went the same way, each change just before the event that made it.
		const states = events.flatMap((event) => (event.type === "tool_call_changed" ? [event.call.status] : []));
		expect(states).toEqual(["queued", "preparing", "awaiting_approval", "preparing", "running", "done"]);
		const state = session.toolCalls.get("c1")!;
		expect(state.description).toMatchObject({ shellCommand: "npm test && git status" });
		expect(state.startedAt! - state.preparingAt!).toBeGreaterThanOrEqual(state.approvalWaitMs);
		expect(events.find((event) => event.type === "tool_approval_resolved")).toMatchObject({ toolCallId: "c1", outcome: "allowed" });
	});

	it("gives the model the user's reason for denying", async () => {
		const ui = scriptedUi(["deny"], ["we never publish from here"]);
		const { session, stream, resultText, results } = setUp({ turns: [assistant([call("c1", "bash", { command: "npm publish" })], "toolUse")], flags: ask, ui });
		await session.runPrompt("go");
		expect(results()[0].isError).toBe(true);
		expect(resultText(0)).toBe("The user denied this bash call and said: we never publish from here");
		expect(session.toolCalls.get("c1")?.status).toBe("blocked");
		const sentBack = JSON.stringify(stream.contexts[1].messages.at(-1));
		expect(sentBack).toContain("we never publish from here");
	});

	it("denies without a reason when the user gives none", async () => {
		const ui = scriptedUi(["deny"], [undefined]);
		const { session, resultText } = setUp({ turns: [assistant([call("c1", "bash", { command: "rm notes.txt" })], "toolUse")], flags: ask, ui });
		await session.runPrompt("go");
		expect(resultText(0)).toContain("The user denied this bash call. Do not retry it unchanged");
	});

	it("stops the run when the question is dismissed with Esc", async () => {
		const ui = scriptedUi([undefined]);
		const { session, stream, resultText, events } = setUp({
			turns: [assistant([call("c1", "bash", { command: "make" })], "toolUse"), assistant([text("should not be asked")])],
			flags: ask,
			ui,
		});
		const outcome = await session.runPrompt("go");
		expect(outcome.status).toBe("aborted");
		expect(resultText(0)).toBe("The user stopped the run instead of answering whether this call may run.");
		expect(stream.contexts).toHaveLength(1);
		expect(events.find((event) => event.type === "tool_approval_resolved")).toMatchObject({ outcome: "interrupted" });
	});

	it("remembers 'allow for this session' for the command's prefix", async () => {
		const ui = scriptedUi(["session"]);
		const { session, resultText } = setUp({
			turns: [
				assistant([call("c1", "bash", { command: "npm test" })], "toolUse"),
				assistant([call("c2", "bash", { command: "npm test -- --watch=false" })], "toolUse"),
				assistant([call("c3", "bash", { command: "npm publish" })], "toolUse"),
			],
			flags: ask,
			ui,
		});
		await session.runPrompt("go");
		expect(ui.asked).toHaveLength(2);
		expect(resultText(1)).toBe("ran: npm test -- --watch=false");
		expect(ui.asked[1].options.body).toEqual([{ text: "npm publish", style: "plain" }]);
	});

	it("asks about a parallel batch in source order, showing each write's diff before anything is written", async () => {
		const ui = scriptedUi(["once", "deny"], [""]);
		const { session, cwd, resultText } = setUp({
			turns: [
				assistant(
					[call("w1", "write", { path: "a.txt", content: "first\n" }), call("w2", "write", { path: "b.txt", content: "second\n" })],
					"toolUse",
				),
			],
			tools: (dir) => [createWriteTool(dir)],
			flags: ask,
			ui,
		});
		await session.runPrompt("go");
		expect(ui.asked.map((question) => question.options.title)).toEqual(["Allow write to change a.txt?", "Allow write to change b.txt?"]);
		expect(ui.asked[0].options.body?.map((line) => [line.style, line.text])).toEqual([
			["hunk", "@@ -0,0 +1,1 @@"],
			["added", "+first"],
		]);
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("first\n");
		expect(existsSync(join(cwd, "b.txt"))).toBe(false);
		expect(resultText(1)).toContain("The user denied this write call.");
	});

	it("shows the diff an edit would make, and a failing edit's error, without changing the file", async () => {
		const ui = scriptedUi(["deny", "deny"]);
		const { session, cwd } = setUp({
			turns: [
				assistant([call("e1", "edit", { path: "a.txt", edits: [{ oldText: "two", newText: "2" }] })], "toolUse"),
				assistant([call("e2", "edit", { path: "a.txt", edits: [{ oldText: "nine", newText: "9" }] })], "toolUse"),
			],
			tools: (dir) => {
				writeFileSync(join(dir, "a.txt"), "one\ntwo\nthree\n");
				return [createEditTool(dir)];
			},
			flags: ask,
			ui,
		});
		await session.runPrompt("go");
		expect(ui.asked[0].options.body?.filter((line) => line.style === "added" || line.style === "removed")).toEqual([
			{ text: "-two", style: "removed" },
			{ text: "+2", style: "added" },
		]);
		expect(ui.asked[1].options.body?.[0]).toMatchObject({ style: "error" });
		expect(ui.asked[1].options.body?.[0].text).toContain("This call would fail: edits[0].oldText was not found in a.txt");
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\ntwo\nthree\n");
	});
});

describe("without anyone to ask (print mode)", () => {
	it("refuses what needs asking, says which rule would allow it, and runs what a rule allows", async () => {
		const { session, events, resultText } = setUp({
			turns: [assistant([call("c1", "bash", { command: "npm test" }), call("c2", "bash", { command: "rm -rf build" })], "toolUse")],
			flags: { ...ask, allow: ["bash(npm test)"] },
		});
		await session.runPrompt("go");
		expect(resultText(0)).toBe("ran: npm test");
		expect(resultText(1)).toContain("nobody can answer here (print mode)");
		const unanswered = events.filter((event) => event.type === "tool_approval_resolved");
		expect(unanswered).toEqual([{ type: "tool_approval_resolved", toolCallId: "c2", toolName: "bash", outcome: "unanswered", rules: ["bash(rm -rf build)"] }]);
	});
});

describe("/approval and the project's settings", () => {
	it("switches the mode, tells listeners and the session, and refuses an unknown mode", async () => {
		const { session, events, policy } = setUp({ turns: [] });
		await session.start();
		expect(session.approvalMode).toBe("auto");
		const notices: string[] = [];
		const ctx = { session, busy: false, notify: (_level: string, message: string) => notices.push(message) };
		await session.commands.get("approval")!.handler("read-only", ctx);
		expect(policy.state.mode).toBe("read-only");
		expect(session.approvalMode).toBe("read-only");
		expect(events.at(-1)).toEqual({ type: "approval_mode_changed", mode: "read-only" });
		await session.commands.get("approval")!.handler("sometimes", ctx);
		expect(notices.at(-1)).toBe('Unknown approval mode "sometimes". Use one of: auto, ask, read-only, plan.');
		await session.commands.get("approval")!.handler("", ctx);
		expect(notices.at(-1)).toContain("Approval mode: read-only (only tools that change nothing run)");
	});

	it("takes a project's stricter mode and deny rules, never its allow rules, looser mode or guards turned off", async () => {
		const { policy, session } = setUp({
			turns: [],
			settings: { approval: "auto", allow: ["bash(make)"], guards: { "fork-bomb": false } },
			project: { approval: "ask", allow: ["bash"], deny: ["bash(git push*)"], guards: { "recursive-delete": false } },
		});
		expect(policy.state.mode).toBe("ask");
		expect(policy.state.allow.map((rule) => rule.text)).toEqual(["bash(make)"]);
		expect(policy.state.deny.map((rule) => rule.text)).toEqual(["bash(git push*)"]);
		expect([...policy.state.disabledGuards]).toEqual(["fork-bomb"]);
		expect(policy.ignored.join("\n")).toContain("allow rules (bash) ignored: a project's settings may only tighten the user's.");
		expect(policy.ignored.join("\n")).toContain("turning off the recursive-delete guard ignored");
		expect(session.loadWarnings.join("\n")).toContain("allow rules (bash) ignored");
	});

	it("keeps the project's mode for the whole session: a looser one is refused, naming the project's file", async () => {
		const { policy, session, events, cwd } = setUp({ turns: [], flags: { approval: "auto" }, project: { approval: "read-only" } });
		await session.start();
		expect(session.approvalMode).toBe("read-only");
		const notices: [string, string][] = [];
		const ctx = { session, busy: false, notify: (level: string, message: string) => notices.push([level, message]) };
		const changes = () => events.filter((event) => event.type === "approval_mode_changed").length;
		const before = changes();
		for (const mode of ["auto", "ask"]) {
			await session.commands.get("approval")!.handler(mode, ctx);
			expect(notices.at(-1)).toEqual([
				"error",
				`${join(cwd, ".loom", "settings.json")} keeps this project at approval "read-only" or stricter for the whole session, so "${mode}" is refused. To loosen it, change that file and start loom again.`,
			]);
		}
		await session.commands.get("approval")!.handler("next", ctx);
		expect(notices.at(-1)).toEqual(["warning", `Approval stays read-only: ${join(cwd, ".loom", "settings.json")} keeps this project at "read-only" for the whole session.`]);
		await expect(policy.setMode("auto")).rejects.toThrow(`keeps this project at approval "read-only" or stricter`);
		expect(policy.state.mode).toBe("read-only");
		expect(session.approvalMode).toBe("read-only");
		expect(changes()).toBe(before);
		await session.commands.get("approval")!.handler("", ctx);
		expect(notices.at(-1)![1]).toContain(`Approval mode: read-only (only tools that change nothing run). ${join(cwd, ".loom", "settings.json")} allows nothing looser.`);
	});

	it("/approval next cycles through the modes the project allows, and through all four without one", async () => {
		const cycle = async (setup: Partial<Setup>) => {
			const { session } = setUp({ turns: [], ...setup });
			await session.start();
			const seen = [session.approvalMode];
			for (let step = 0; step < 4; step++) {
				await session.commands.get("approval")!.handler("next", { session, busy: false, notify: () => {} });
				seen.push(session.approvalMode);
			}
			return seen;
		};
		expect(await cycle({})).toEqual(["auto", "ask", "read-only", "plan", "auto"]);
		expect(await cycle({ flags: { approval: "read-only" }, project: { approval: "ask" } })).toEqual(["read-only", "plan", "ask", "read-only", "plan"]);
	});

	it("reports a bad rule and an unknown guard with where they were written", () => {
		expect(() => setUp({ turns: [], flags: { allow: ["bash("] } })).toThrow('Invalid rule "bash(" (--allow)');
		expect(() => setUp({ turns: [], settings: { guards: { "no-such-guard": false } } })).toThrow(/Unknown guard "no-such-guard" in .*settings\.json: the guards are recursive-delete, mkfs/);
	});
});

describe("secrets", () => {
	it("keeps configured keys and secret-named variables out of results, the session file and the model's context", async () => {
		const env = { GITHUB_TOKEN: "ghp_abcdefghijklmnop", SHORT_KEY: "abc", HOME: "/home/ada" };
		const { session, stream, resultText } = setUp({
			turns: [assistant([call("c1", "bash", { command: "env" })], "toolUse")],
			tools: () => [fakeShell(() => "GITHUB_TOKEN=ghp_abcdefghijklmnop KEY=sk-configured-key-0123456789 SHORT_KEY=abc HOME=/home/ada")],
			env,
		});
		await session.runPrompt("go");
		expect(resultText(0)).toBe("GITHUB_TOKEN=*** KEY=*** SHORT_KEY=abc HOME=/home/ada");
		expect(JSON.stringify(stream.contexts[1].messages)).not.toContain("ghp_abcdefghijklmnop");
		const file = readFileSync(session.sessionFile!, "utf8");
		expect(file).not.toContain("ghp_abcdefghijklmnop");
		expect(file).not.toContain("sk-configured-key-0123456789");
	});

	it("gives the session the same mask for text joining a prompt from elsewhere, and takes it off with the policy", () => {
		const { session, policy } = setUp({ turns: [], env: { MY_API_TOKEN: "supersecretvalue123" } });
		expect(session.maskSecrets("token=supersecretvalue123 key=sk-configured-key-0123456789 user=ada")).toBe("token=*** key=*** user=ada");
		policy.uninstall();
		expect(session.maskSecrets("token=supersecretvalue123")).toBe("token=supersecretvalue123");
	});
});
