import { describe, expect, it } from "vitest";
import { waitFor } from "../support/wait-for.js";
import { assistant, streamedAssistant, textDelta, toolCall, toolEnd, toolResultMessage, toolStart, usage } from "./events.js";
import { FakeSession, type Script, gate } from "./fake-session.js";
import { mount } from "./mount-app.js";

const ENTER = "\r";
const ESC = "\u001b";
const CTRL_O = "\u000f";
const CTRL_L = "\u000c";

const longOutput = Array.from({ length: 60 }, (_, i) => `output line ${i + 1}`).join("\n");

function bashRun(id: string, command: string, output: string) {
	return [
		...streamedAssistant([""], assistant([toolCall(id, "bash", { command })])),
		toolStart(id, "bash", { command }),
		toolEnd(id, "bash", output),
		...toolResultMessage(id, "bash", output),
		{ type: "turn_end" as const, message: assistant(""), toolResults: [] },
	];
}

describe("App", () => {
	it("sends a typed prompt and shows it, the answer and the footer", async () => {
		const session = new FakeSession((text) => [
			{ type: "turn_start" },
			...streamedAssistant(["The **answer** ", `to ${text}`], assistant(`The **answer** to ${text}`, { usage: usage(1500, 300, 0.012) })),
			{ type: "turn_end", message: assistant(""), toolResults: [] },
		]);
		const screen = mount(session);
		await screen.type("what is up", ENTER);
		const frame = await screen.until((f) => f.includes("The answer to what is up") && f.includes("ready"));
		expect(session.calls.prompts).toEqual(["what is up"]);
		expect(frame).toContain("› what is up");
		expect(frame).toContain("test/test-model · thinking medium · /work/project · ↑1.5k ↓300 · $0.01 · ctx 2%");
	});

	it("shows a live row per tool call, each changing state on its own event (parallel completion order)", async () => {
		const first = gate();
		const second = gate();
		const script: Script = () => [
			{ type: "turn_start" },
			...streamedAssistant(["Reading both."], assistant([{ type: "text", text: "Reading both." }, toolCall("a", "read", { path: "a.txt" }), toolCall("b", "read", { path: "b.txt" })])),
			toolStart("a", "read", { path: "a.txt" }),
			toolStart("b", "read", { path: "b.txt" }),
			() => first.promise,
			toolEnd("b", "read", "B1\nB2", false, { startLine: 1, endLine: 2, totalLines: 2 }),
			() => second.promise,
			toolEnd("a", "read", "A1", false, { startLine: 1, endLine: 1, totalLines: 1 }),
			...toolResultMessage("a", "read", "A1"),
			...toolResultMessage("b", "read", "B1\nB2"),
			{ type: "turn_end", message: assistant(""), toolResults: [] },
			{ type: "turn_start" },
			...streamedAssistant(["Both read."]),
			{ type: "turn_end", message: assistant(""), toolResults: [] },
		];
		const session = new FakeSession(script);
		const screen = mount(session);
		await screen.type("read a and b", ENTER);
		let frame = await screen.until((f) => f.includes("b.txt") && f.includes("esc to interrupt"));
		expect(frame).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] read a\.txt preparing/);
		expect(frame).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] read b\.txt preparing/);

		first.open();
		frame = await screen.until((f) => /✓ read b\.txt/.test(f));
		expect(frame).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] read a\.txt/);
		expect(frame.indexOf("read a.txt")).toBeLessThan(frame.indexOf("read b.txt"));
		expect(frame).toMatch(/read 2 lines\n/);

		second.open();
		frame = await screen.until((f) => f.includes("Both read.") && f.includes("ready"));
		expect(frame).toMatch(/✓ read a\.txt[^\n]*\n\s+read 1 line\n✓ read b\.txt/);
		// Each row appears once: the batch moved into the transcript, not copied.
		expect(frame.match(/read a\.txt/g)).toHaveLength(1);
	});

	it("queues a message typed during a run above the editor; Esc interrupts and puts it back", async () => {
		const hold = gate();
		const session = new FakeSession(() => [{ type: "turn_start" }, { type: "message_start", message: assistant([]) }, textDelta("Working on it"), () => hold.promise]);
		const screen = mount(session);
		await screen.type("start", ENTER);
		await screen.until((f) => f.includes("Working on it"));
		await screen.type("use pnpm instead", ENTER);
		let frame = await screen.until((f) => f.includes("queued steer: use pnpm instead"));
		expect(session.calls.steers).toEqual(["use pnpm instead"]);
		expect(session.calls.prompts).toEqual(["start"]);
		expect(frame).toContain("Steer the run");

		await screen.type(ESC);
		frame = await screen.until((f) => f.includes("› use pnpm instead"));
		expect(session.calls.aborts).toBe(1);
		hold.open();
		frame = await screen.until((f) => f.includes("Interrupted.") && f.includes("ready"));
		expect(frame).not.toContain("queued steer");
		expect(frame).toContain("› use pnpm instead");
	});

	it("shows delivered steering messages in the transcript", async () => {
		const hold = gate();
		const session = new FakeSession(() => [{ type: "turn_start" }, () => hold.promise, () => session.deliverSteering(), ...streamedAssistant(["Switched."])]);
		const screen = mount(session);
		await screen.type("go", ENTER);
		await screen.until((f) => f.includes("esc to interrupt"));
		await screen.type("switch", ENTER);
		await screen.until((f) => f.includes("queued steer: switch"));
		hold.open();
		const frame = await screen.until((f) => f.includes("Switched.") && f.includes("ready"));
		expect(frame).toContain("› switch");
		expect(frame).not.toContain("queued steer");
	});

	it("explains a prompt that could not start and keeps the text in the editor", async () => {
		const session = new FakeSession();
		session.promptError = new Error("No API key for test. Set TEST_API_KEY, or run loom with --api-key.");
		const screen = mount(session);
		await screen.type("fix it", ENTER);
		const frame = await screen.until((f) => f.includes("No API key"));
		expect(frame).toContain("✗ No API key for test. Set TEST_API_KEY, or run loom with --api-key.");
		expect(frame).not.toMatch(/at .*\.ts:\d+/);
		await screen.until((f) => f.includes("› fix it"));
	});

	it("says again what to set at each Enter while no key is usable, and keeps the text each time", async () => {
		const session = new FakeSession();
		const problem = "No API key for test. Set TEST_API_KEY, or run loom with --api-key.";
		session.promptError = new Error(problem);
		const screen = mount(session);
		await screen.type("fix it", ENTER);
		await screen.until((f) => f.split(problem).length - 1 === 1 && f.includes("› fix it"));
		await screen.type(ENTER);
		await screen.until((f) => f.split(problem).length - 1 === 2 && f.includes("› fix it"));
		await screen.type(ENTER);
		await screen.until((f) => f.split(problem).length - 1 === 3 && f.includes("› fix it"));
		expect(session.calls.prompts).toEqual(["fix it", "fix it", "fix it"]);
	});

	it("shows session errors and a retry countdown", async () => {
		const session = new FakeSession();
		const screen = mount(session);
		await screen.until((f) => f.includes("ready"));
		await session.emit({ type: "session_error", message: "Cannot reach https://api.test (ECONNREFUSED). Check your network or base URL." });
		await session.emit({ type: "retry_scheduled", attempt: 1, maxRetries: 3, delayMs: 30_000, reason: "503 unavailable" });
		const frame = await screen.until((f) => f.includes("⟳ Retry 1/3"));
		expect(frame).toContain("✗ Cannot reach https://api.test (ECONNREFUSED).");
		expect(frame).toMatch(/⟳ Retry 1\/3 in (30|29)s: 503 unavailable/);
		await session.emit({ type: "retry_finished", attempt: 1, success: true });
		await screen.until((f) => !f.includes("⟳ Retry"));
	});

	it("keeps the live area below the terminal's height while a long answer streams", async () => {
		const session = new FakeSession();
		const screen = mount(session, { rows: 16, columns: 50 });
		await screen.until((f) => f.includes("ready"));
		await session.emit({ type: "agent_start" });
		await session.emit({ type: "message_start", message: assistant([]) });
		for (let i = 0; i < 200; i++) await session.emit(textDelta(`word${i} `));
		await session.emit(toolStart("t", "bash", { command: "npm test" }));
		const frame = await screen.until((f) => f.includes("word199") && f.includes("npm test"));
		// Nothing was finished yet, so the whole frame is the live area.
		expect(frame.split("\n").length).toBeLessThanOrEqual(15);
	});

	it("is busy from the session's run_start to its run_end, also for a run the session started itself", async () => {
		const session = new FakeSession();
		const screen = mount(session);
		await screen.until((f) => f.includes("ready"));
		await session.emit({ type: "run_start" });
		await session.emit({ type: "agent_start" });
		await screen.until((f) => f.includes("Working"));
		await screen.type("also check the docs", ENTER);
		await screen.until((f) => f.includes("queued steer: also check the docs"));
		expect(session.calls.steers).toEqual(["also check the docs"]);
		expect(session.calls.prompts).toEqual([]);
		// Between the agent's runs (an overflow's compaction, queued messages) the prompt's run goes on.
		await session.emit({ type: "agent_end", messages: [] });
		await screen.until((f) => f.includes("Finishing"));
		await session.emit({ type: "run_end", status: "done" });
		await screen.until((f) => f.includes("ready"));
		await screen.type("next", ENTER);
		await screen.until((f) => f.includes("echo: next"));
		expect(session.calls.prompts).toEqual(["next"]);
	});

	it("sends the initial prompt on start", async () => {
		const session = new FakeSession();
		const screen = mount(session, { initialPrompt: "first task" });
		await screen.until((f) => f.includes("echo: first task"));
		expect(session.calls.prompts).toEqual(["first task"]);
	});
});

describe("slash commands", () => {
	async function ready(session = new FakeSession()) {
		const screen = mount(session);
		await screen.until((f) => f.includes("ready"));
		return { session, screen };
	}

	it("/help lists the commands and keys", async () => {
		const { screen } = await ready();
		await screen.type("/help", ENTER);
		const frame = await screen.until((f) => f.includes("Commands:"));
		for (const name of ["/new", "/model <id>", "/thinking <level>", "/session", "/resume", "/quit", "Shift+Enter", "Esc", "Ctrl+C"]) expect(frame).toContain(name);
	});

	it("/model switches the model, and reports an unknown one", async () => {
		const { session, screen } = await ready();
		await screen.type("/model bigger-model", ENTER);
		await screen.until((f) => f.includes("Model: test/bigger-model") && f.includes("test/bigger-model · thinking"));
		expect(session.calls.models).toEqual(["bigger-model"]);
		await screen.type("/model nope", ENTER);
		await screen.until((f) => f.includes('✗ Unknown model "nope"'));
	});

	it("/thinking sets a valid level and rejects others", async () => {
		const { session, screen } = await ready();
		await screen.type("/thinking loud", ENTER);
		await screen.until((f) => f.includes('Unknown thinking level "loud"'));
		await screen.type("/thinking high", ENTER);
		await screen.until((f) => f.includes("thinking high ·"));
		expect(session.calls.levels).toEqual(["high"]);
	});

	it("/session shows the file, messages, tokens and cost", async () => {
		const session = new FakeSession();
		session.messageCount = 4;
		session.usageTotals = { input: 2000, output: 500, cacheRead: 1000, cacheWrite: 0, cost: 0.25 };
		const { screen } = await ready(session);
		await screen.type("/session", ENTER);
		const frame = await screen.until((f) => f.includes("Session file:"));
		expect(frame).toContain("Session file: /home/u/.loom/sessions/s1.jsonl");
		expect(frame).toContain("Messages: 4");
		expect(frame).toContain("↑3.0k in (1.0k cached) · ↓500 out");
		expect(frame).toContain("Cost: $0.25");
	});

	it("/new starts a new session; /resume picks a session from a list, or opens one by number", async () => {
		const session = new FakeSession();
		session.sessions = [
			{ file: "/s/one.jsonl", id: "one", modified: new Date("2026-01-02T10:00:00Z"), firstPrompt: "refactor the parser", messageCount: 12 },
			{ file: "/s/two.jsonl", id: "two", modified: new Date("2026-01-01T09:00:00Z"), firstPrompt: "", messageCount: 0 },
		];
		const { screen } = await ready(session);
		await screen.type("/new", ENTER);
		await screen.until((f) => f.includes("Session /home/u/.loom/sessions/s2.jsonl"));
		expect(session.calls.news).toBe(1);
		await screen.type("/resume", ENTER);
		let frame = await screen.until((f) => f.includes("Resume which session?"));
		expect(frame).toMatch(/› refactor the parser\s+2026-01-02 · 12 messages/);
		expect(frame).toMatch(/ {2}\(no prompt yet\)\s+2026-01-01 · 0 messages/);
		await screen.type(ESC);
		await screen.until((f) => !f.includes("Resume which session?"));
		expect(session.calls.resumed).toEqual([]);
		await screen.type("/resume 3", ENTER);
		await screen.until((f) => f.includes("There is no session number 3"));
		await screen.type("/resume 1", ENTER);
		frame = await screen.until((f) => f.includes("Resumed session with 7 messages") && f.includes("The earlier answer."));
		expect(session.calls.resumed).toEqual(["/s/one.jsonl"]);
		// The resumed conversation is shown after the notice, tool rows included (no durations: none are saved).
		expect(frame).toMatch(/Resumed session with 7 messages[^\n]*\n\n› the earlier question\n\nThe earlier answer\.\n\n✓ read old\.txt\n/);
		// The resumed session's totals come from the session, not from zero.
		expect(frame).toContain("↑1.0k ↓200 · $0.50");
	});

	it("/compact compacts; an unknown command is reported, a path is a prompt", async () => {
		const { session, screen } = await ready();
		await screen.type("/compact keep the API notes", ENTER);
		await screen.until((f) => f.includes("Compacted the conversation (5,000 tokens before)."));
		expect(session.calls.compacts).toEqual(["keep the API notes"]);
		await screen.type("/frobnicate", ENTER);
		await screen.until((f) => f.includes("Unknown command /frobnicate. /help lists the commands."));
		await screen.type("/etc/hosts looks wrong", ENTER);
		await screen.until((f) => f.includes("echo: /etc/hosts looks wrong"));
	});

	it("during a run, refuses the commands that replace the conversation and says how to go on", async () => {
		const hold = gate();
		const session = new FakeSession(() => [{ type: "turn_start" }, () => hold.promise]);
		const screen = mount(session);
		await screen.type("start", ENTER);
		await screen.until((f) => f.includes("esc to interrupt"));
		await screen.type("/new", ENTER);
		await screen.until((f) => f.includes("Cannot start a new session while a run is active. Press Esc"));
		await screen.type("/compact", ENTER);
		await screen.until((f) => f.includes("Cannot compact while a run is active."));
		expect(session.calls.news).toBe(0);
		expect(session.calls.compacts).toEqual([]);
		hold.open();
		await screen.until((f) => f.includes("ready"));
		await screen.type("/new", ENTER);
		await screen.until((f) => f.includes("Session /home/u/.loom/sessions/s2.jsonl"));
		expect(session.calls.news).toBe(1);
	});

	it("/help lists a command registered later, which then runs like the built-in ones", async () => {
		const session = new FakeSession();
		const ran: string[] = [];
		session.commands.register({
			name: "deploy",
			argsHint: "<env>",
			description: "ship it",
			source: "extension",
			handler: (args, ctx) => {
				ran.push(args);
				ctx.notify("info", `Deploying to ${args}, model ${ctx.session.model?.id}`);
			},
		});
		const { screen } = await ready(session);
		await screen.type("/help", ENTER);
		const help = await screen.until((f) => f.includes("Commands:"));
		expect(help).toMatch(/\/deploy <env> +ship it/);
		await screen.type("/deploy staging", ENTER);
		await screen.until((f) => f.includes("Deploying to staging, model test-model"));
		expect(ran).toEqual(["staging"]);
	});

	it("reports a command's failure as one line, without a stack trace", async () => {
		const session = new FakeSession();
		session.commands.register({ name: "explode", description: "fails", handler: () => Promise.reject(new Error("the fuse was wet")) });
		const { screen } = await ready(session);
		await screen.type("/explode", ENTER);
		const frame = await screen.until((f) => f.includes("the fuse was wet"));
		expect(frame).toContain("✗ the fuse was wet");
		expect(frame).not.toMatch(/at .*\.ts:\d+/);
	});

	it("/exit exits like /quit", async () => {
		const { screen } = await ready();
		await screen.type("/exit", ENTER);
		await waitFor(() => String(screen.exits.length), (n) => n === "1");
		expect(screen.exits).toEqual([0]);
	});

	it("/quit exits with code 0", async () => {
		const { screen } = await ready();
		await screen.type("/quit", ENTER);
		await waitFor(() => screen.exits.length, (n) => n === 1);
		expect(screen.exits).toEqual([0]);
	});
});

describe("Ctrl+O and Ctrl+L on the screen", () => {
	it("Ctrl+O prints the last tool output again in full, below what was cut", async () => {
		const session = new FakeSession(() => bashRun("b1", "seq 60", longOutput));
		const screen = mount(session);
		await screen.type("run it", ENTER);
		let frame = await screen.until((f) => f.includes("ready") && f.includes("bash seq 60"));
		expect(frame).not.toContain("output line 1\n");
		await screen.type(CTRL_O);
		frame = await screen.until((f) => f.includes("▾ Output of bash seq 60"));
		const expanded = frame.slice(frame.indexOf("▾ Output of bash seq 60"));
		for (const n of [1, 2, 30, 60]) expect(expanded).toContain(`output line ${n}\n`);
	});

	it("Ctrl+O shows a compaction's summary in full", async () => {
		const session = new FakeSession();
		session.compact = async () => {
			await session.emit({ type: "compaction_start", reason: "manual" });
			await session.emit({ type: "compaction_end", reason: "manual", aborted: false, tokensBefore: 5000, summary: "## Goal\nShip the parser.\n## Files\nsrc/parser.ts" });
		};
		const screen = mount(session);
		await screen.until((f) => f.includes("Ask loom"));
		await screen.type("/compact", ENTER);
		await screen.until((f) => f.includes("Compacted the conversation (5,000 tokens before). · ctrl+o shows it"));
		await screen.type(CTRL_O);
		const frame = await screen.until((f) => f.includes("▾ Summary of the compacted conversation"));
		expect(frame).toContain("Ship the parser.\n## Files\nsrc/parser.ts");
	});

	it("Ctrl+L clears the terminal and prints the transcript again", async () => {
		const session = new FakeSession();
		const screen = mount(session);
		await screen.type("hello", ENTER);
		await screen.until((f) => f.includes("echo: hello") && f.includes("ready"));
		expect(screen.printed()).not.toContain("\u001b[2J");
		await screen.type(CTRL_L);
		await expect.poll(screen.printed).toContain("\u001b[2J");
		// The frame shows what follows the last clear: the transcript, printed again.
		const frame = screen.frame();
		expect(frame).toContain("› hello");
		expect(frame).toContain("echo: hello");
	});
});
