// End to end in a real terminal: in approval mode ask, the user denies a command with a reason, and the model
// (the scripted server) receives that reason; Shift+Tab changes the mode shown in the footer, never below the
// project's own mode.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { type TmuxTerminal, hasTmux } from "../support/tmux-terminal.js";

describe.skipIf(!hasTmux())("approval in a terminal (tmux)", () => {
	const { server, workspace, open } = useLoomInTmux("loom-approval");
	let terminal: TmuxTerminal;
	let cwd: string;

	beforeAll(() => {
		const ws = workspace();
		cwd = ws.cwd;
		mkdirSync(join(cwd, "build"));
		({ terminal } = open({ workspace: ws, args: ["--approval", "ask"] }));
	});

	it("asks before running a command; the reason for denying it reaches the model", async () => {
		await terminal.waitForScreen((text) => text.includes("Ask loom") && text.includes("ask (shift+tab)"), "the editor and the mode");

		server.enqueue({ text: "Tidying.", toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "rm -rf build" } }] });
		server.enqueue({ text: "Understood, the build stays." });
		await terminal.typeLine("tidy up");
		let text = await terminal.waitForScreen((t) => t.includes("Allow bash to run this command?") && t.includes("waiting for approval"), "the approval question");
		expect(text).toMatch(/\? bash rm -rf build waiting for approval/);
		expect(text).toContain("› [1] Allow once");
		expect(text).toContain("Deny, and say why (optional)");

		terminal.sendKeys("Down");
		terminal.sendKeys("Down");
		await terminal.waitForScreen((t) => t.includes("› [3] Deny, and say why"), "deny selected");
		terminal.sendKeys("Enter");
		await terminal.waitForScreen((t) => t.includes("Why not? The model reads this"), "the reason field");
		terminal.sendKeys("-l", "the build is still needed");
		await terminal.waitForScreen((t) => t.includes("the build is still needed"), "the typed reason");
		terminal.sendKeys("Enter");

		text = await terminal.waitForScreen((t) => t.includes("Understood, the build stays.") && t.includes("ready"), "the model's answer");
		expect(text).toMatch(/✗ bash rm -rf build/);
		expect(existsSync(join(cwd, "build"))).toBe(true);
		const toolMessage = server.requests[1]!.body.messages.find((m: any) => m.role === "tool");
		expect(JSON.stringify(toolMessage.content)).toContain("The user denied this bash call and said: the build is still needed");

		terminal.sendKeys("BTab");
		await terminal.waitForScreen((t) => t.includes("read-only (shift+tab)"), "the next mode in the footer");

		terminal.sendKeys("C-d");
		await terminal.waitForScreen((t) => t.includes("[loom exited with 0]"), "loom exiting");
	});
});

describe.skipIf(!hasTmux())("a project's read-only mode in a terminal (tmux)", () => {
	const { workspace, open } = useLoomInTmux("loom-approval-floor");
	let floorTerminal: TmuxTerminal;
	let settingsFile: string;

	beforeAll(() => {
		const ws = workspace();
		mkdirSync(join(ws.cwd, ".loom"));
		settingsFile = join(ws.cwd, ".loom", "settings.json");
		writeFileSync(settingsFile, JSON.stringify({ approval: "read-only" }));
		({ terminal: floorTerminal } = open({ workspace: ws, args: ["--approval", "auto"], columns: 200 }));
	});

	it("holds for the whole session: Shift+Tab and /approval auto leave it read-only, saying which file keeps it", async () => {
		await floorTerminal.waitForScreen((text) => text.includes("Ask loom") && text.includes("read-only (shift+tab)"), "the editor and the project's mode");

		floorTerminal.sendKeys("BTab");
		let text = await floorTerminal.waitForScreen((t) => t.includes("Approval stays read-only"), "why Shift+Tab changed nothing");
		expect(text).toContain(`${settingsFile} keeps this project at "read-only" for the whole session.`);
		expect(text).toContain("read-only (shift+tab)");

		await floorTerminal.typeLine("/approval auto");
		text = await floorTerminal.waitForScreen((t) => t.includes('so "auto" is refused'), "/approval auto refused");
		expect(text).toContain(`${settingsFile} keeps this project at approval "read-only" or stricter for the whole session`);
		expect(text).toContain("read-only (shift+tab)");
		expect(text).not.toContain("auto (shift+tab)");

		floorTerminal.sendKeys("C-d");
		await floorTerminal.waitForScreen((t) => t.includes("[loom exited with 0]"), "loom exiting");
	});
});
