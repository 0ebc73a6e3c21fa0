// The approval question as the screen shows it: the command or the diff, the choices and the keys that answer
// them; the row waiting for approval; the footer's mode and Shift+Tab.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { render } from "ink-testing-library";
import chalk from "chalk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalMode } from "../../src/core/config/approval-mode.js";
import { approvalCommand } from "../../src/plugs/policy/approval-command.js";
import { askApproval } from "../../src/plugs/policy/approval-question.js";
import { gatherFacts, type PolicyContext } from "../../src/plugs/policy/call-facts.js";
import type { PolicyState } from "../../src/plugs/policy/decide.js";
import { createBashTool, createWriteTool } from "../../src/tools/index.js";
import { DialogHost } from "../../src/tui/components/DialogHost.js";
import { DialogQueue } from "../../src/tui/dialogs/dialog-queue.js";
import { tempDir } from "../support/temp-dir.js";
import { FakeSession, gate } from "./fake-session.js";
import { mount } from "./mount-app.js";
import { plain, typeKeys, waitForFrame } from "./render-helpers.js";

const ENTER = "\r";
const ESC = "\u001b";
const DOWN = "\u001b[B";
const SHIFT_TAB = "\u001b[Z";

const cwd = tempDir("loom-prompt-");
mkdirSync(join(cwd, ".git"));
writeFileSync(join(cwd, "notes.md"), "# Notes\nold line\n");
const ctx: PolicyContext = { cwd, home: "/home/ada", repoRoot: cwd, workTree: cwd, realWorkTree: cwd };
const bash = createBashTool(cwd);
const write = createWriteTool(cwd);

const level = chalk.level;
beforeAll(() => {
	chalk.level = 1;
});
afterAll(() => {
	chalk.level = level;
});

const unmounts: Array<() => void> = [];
afterEach(() => {
	for (const unmount of unmounts.splice(0)) unmount();
});

/** The screen's dialog host over its SessionUi, as App shows it. */
function dialogScreen(maxRows = 20, width = 80) {
	const ui = new DialogQueue(() => {}, true);
	const element = () => {
		const dialog = ui.current();
		return dialog ? <DialogHost dialog={dialog} width={width} maxRows={maxRows} active /> : <></>;
	};
	const app = render(element());
	unmounts.push(app.unmount);
	ui.subscribe(() => app.rerender(element()));
	return {
		ui,
		raw: () => app.lastFrame() ?? "",
		press: (...keys: string[]) => typeKeys(app.stdin, ...keys),
		until: (check: (frame: string) => boolean) => waitForFrame(app.lastFrame, check),
	};
}

async function askAbout(screen: ReturnType<typeof dialogScreen>, tool: typeof bash | typeof write, args: unknown) {
	const facts = await gatherFacts(tool, tool.name, args, ctx);
	return askApproval(screen.ui, { toolCallId: "c1", tool, args, facts }, ctx);
}

describe("the approval prompt", () => {
	it("shows the command and its choices; Enter allows it once", async () => {
		const screen = dialogScreen();
		const answer = askAbout(screen, bash, { command: "npm test && git status" });
		const frame = await screen.until((f) => f.includes("Allow bash to run this command?"));
		expect(frame).toContain("npm test && git status");
		expect(frame).toContain("› [1] Allow once");
		// The picker lines descriptions up in a column: two spaces or more after the label.
		expect(frame).toMatch(/Allow for this session {2,}bash\(npm test \*\), bash\(git status \*\)/);
		expect(frame).toContain("Deny, and say why (optional)");
		await screen.press(ENTER);
		expect(await answer).toEqual({ kind: "once" });
	});

	it("shows the diff a write would make, in colour, before anything is written", async () => {
		const screen = dialogScreen();
		const answer = askAbout(screen, write, { path: "notes.md", content: "# Notes\nnew line\n" });
		const frame = await screen.until((f) => f.includes("Allow write to change notes.md?"));
		expect(frame).toContain("-old line");
		expect(frame).toContain("+new line");
		expect(screen.raw()).toMatch(/\u001b\[31m-old line/);
		expect(screen.raw()).toMatch(/\u001b\[32m\+new line/);
		await screen.press(DOWN, ENTER);
		expect(await answer).toEqual({ kind: "session", rules: ["write(./notes.md)"] });
	});

	it("with little room, shows the diff from its first change rather than the lines before it", async () => {
		const screen = dialogScreen(11);
		writeFileSync(join(cwd, "long.md"), `${Array.from({ length: 12 }, (_, index) => `line ${index + 1}`).join("\n")}\n`);
		const content = `${Array.from({ length: 12 }, (_, index) => (index === 7 ? "line eight, changed" : `line ${index + 1}`)).join("\n")}\n`;
		const answer = askAbout(screen, write, { path: "long.md", content });
		const frame = await screen.until((f) => f.includes("Allow write to change long.md?"));
		expect(frame).toContain("-line 8");
		expect(frame).toMatch(/… \d+ more lines/);
		await screen.press(ESC);
		expect(await answer).toEqual({ kind: "dismissed" });
	});

	it("shows a long command whole, wrapped inside the frame, never cut", async () => {
		const screen = dialogScreen();
		const command = "echo a harmless looking command with a long tail of options --flag-one --flag-two && rm -rf build/cache";
		const answer = askAbout(screen, bash, { command });
		const frame = await screen.until((f) => f.includes("Allow bash to run this command?"));
		const body = frame.split("\n").filter((row) => row.startsWith("│") && !row.includes("Allow") && !row.includes("Deny"));
		expect(body.map((row) => row.slice(1, -1).trimEnd()).join(" ").replace(/ {2,}/g, " ")).toContain(command);
		expect(frame).not.toContain("…");
		await screen.press(ESC);
		expect(await answer).toEqual({ kind: "dismissed" });
	});

	it("in a narrow terminal, wraps the rules a session allowance grants rather than cutting them, within the rows it has", async () => {
		// 10 rows is just enough for the command and the wrapped choices; with 9 the choices go back to one row each.
		for (const maxRows of [20, 10, 9]) {
			const screen = dialogScreen(maxRows, 50);
			const answer = askAbout(screen, bash, { command: "npm test && git status" });
			const rows = plain(await screen.until((f) => f.includes("Allow bash to run this command?"))).split("\n");
			expect(rows.length).toBeLessThanOrEqual(maxRows);
			expect(Math.max(...rows.map((row) => row.length))).toBeLessThanOrEqual(50);
			expect(rows.some((row) => row.includes("npm test && git status"))).toBe(true);
			if (maxRows >= 10) {
				const session = rows.findIndex((row) => row.includes("[2] Allow for this"));
				const granted = rows.slice(session, session + 3).map((row) => row.slice(1, -1).trim()).join(" ");
				expect(granted).toContain("bash(npm test *), bash(git status *)");
				expect(rows.filter((row) => row.includes("…"))).toEqual([]);
			}
			await screen.press(ESC);
			expect(await answer).toEqual({ kind: "dismissed" });
		}
	});

	it("denying asks for a reason the model will read", async () => {
		const screen = dialogScreen();
		const answer = askAbout(screen, bash, { command: "npm publish" });
		await screen.until((f) => f.includes("npm publish"));
		await screen.press(DOWN, DOWN, ENTER);
		await screen.until((f) => f.includes("Why not? The model reads this"));
		await screen.press(..."not from this branch".split(""), ENTER);
		expect(await answer).toEqual({ kind: "deny", reason: "not from this branch" });
	});

	it("Esc dismisses the question (the policy then stops the run), as its key hint says", async () => {
		const screen = dialogScreen();
		const answer = askAbout(screen, bash, { command: "make" });
		const frame = await screen.until((f) => f.includes("make"));
		expect(frame).toContain("1/2/3 or ↑↓ enter · esc deny and stop");
		await screen.press(ESC);
		expect(await answer).toEqual({ kind: "dismissed" });
	});
});

describe("approval on the screen", () => {
	it("the row says it waits for approval until the answer comes", async () => {
		const answered = gate();
		const session = new FakeSession(() => [
			{ type: "tool_execution_start", toolCallId: "c1", toolName: "bash", args: { command: "npm test" } },
			{ type: "tool_approval_requested", toolCallId: "c1", toolName: "bash" },
			() => answered.promise,
			{ type: "tool_approval_resolved", toolCallId: "c1", toolName: "bash", outcome: "allowed" },
			{ type: "tool_execution_update", toolCallId: "c1", toolName: "bash", args: {}, partialResult: { content: [{ type: "text", text: "testing…" }], details: undefined } },
			() => new Promise((resolve) => setTimeout(resolve, 5000)),
		]);
		const screen = mount(session);
		await screen.type("go", ENTER);
		const waiting = await screen.until((f) => f.includes("waiting for approval"));
		expect(waiting).toMatch(/\? bash npm test waiting for approval/);
		answered.open();
		const running = await screen.until((f) => f.includes("testing…"));
		expect(running).not.toContain("waiting for approval");
	});

	it("shows the approval mode in the footer, and Shift+Tab moves to the next one through /approval", async () => {
		const session = new FakeSession();
		session.approvalMode = "auto";
		const state = { mode: "auto", allow: [], deny: [], grants: [], disabledGuards: new Set() } as PolicyState;
		session.commands.register(
			approvalCommand({
				state,
				ignored: [],
				async setMode(mode: ApprovalMode) {
					state.mode = mode;
					session.approvalMode = mode;
					await session.emit({ type: "approval_mode_changed", mode });
				},
			}),
		);
		const screen = mount(session);
		await screen.until((f) => f.includes("auto (shift+tab)"));
		await screen.type(SHIFT_TAB);
		await screen.until((f) => f.includes("ask (shift+tab)"));
		await screen.type(SHIFT_TAB);
		await screen.until((f) => f.includes("read-only (shift+tab)"));
		await screen.type(SHIFT_TAB);
		await screen.until((f) => f.includes("plan (shift+tab)"));
		await screen.type(SHIFT_TAB);
		const frame = await screen.until((f) => f.includes("auto (shift+tab)"));
		expect(state.mode).toBe("auto");
		// Shift+Tab says nothing more than the footer does; /approval explains.
		expect(frame).not.toContain("Approval mode:");
		await screen.type(..."/approval ask".split(""), ENTER);
		await screen.until((f) => f.includes("Approval mode: ask (reading runs freely"));
	});

	it("without a policy, Shift+Tab does nothing and the footer names no mode", async () => {
		const session = new FakeSession();
		const screen = mount(session);
		await screen.until((f) => f.includes("Ask loom"));
		await screen.type(SHIFT_TAB, "x");
		const frame = await screen.until((f) => f.includes("› x"));
		expect(frame).not.toContain("shift+tab");
		expect(plain(frame)).not.toContain("Unknown command");
	});
});
