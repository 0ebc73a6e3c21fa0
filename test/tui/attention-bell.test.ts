// The screen calls the user back: a run that ends while the terminal is unfocused rings (OSC 9 here, by the
// setting), one that ends while it is focused and was short does not; the focus reports never reach the editor.
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { AttentionBell, autoRing, ringSequence } from "../../src/tui/screen/index.js";
import { runInteractive } from "../../src/tui/index.js";
import { waitFor } from "../support/wait-for.js";
import { FakeSession, gate } from "./fake-session.js";
import { assistant } from "./events.js";
import { typeKeys } from "./render-helpers.js";
import { TestStdin, TestStdout } from "./terminal-streams.js";

const DONE = "\u001b]9;loom: done\u0007";

describe("notifications", () => {
	it("rings when a run ends in an unfocused terminal, not in a focused one after a short run", async () => {
		const runs = [gate(), gate()];
		let run = 0;
		const session = new FakeSession((text) => [() => runs[run++]!.promise, { type: "message_end", message: assistant(`echo: ${text}`) }]);
		const stdin = new TestStdin(true);
		const stdout = new TestStdout(80, 24, true);
		const output = () => stdout.frames.join("");
		const done = runInteractive(session, {
			stdin: stdin as unknown as NodeJS.ReadStream,
			stdout: stdout as unknown as NodeJS.WriteStream,
			stderr: new TestStdout(80, 24, false) as unknown as NodeJS.WriteStream,
			patchConsole: false,
			notify: "osc9",
		});
		await waitFor(() => stdin.rawMode);
		expect(output()).toContain("\u001b[?1004h");

		await typeKeys(stdin, "first", "\r");
		await waitFor(() => session.calls.prompts.length, (n) => n === 1);
		await typeKeys(stdin, "\u001b[O");
		runs[0]!.open();
		await waitFor(output, (text) => text.includes(DONE));

		await typeKeys(stdin, "\u001b[I", "second", "\r");
		await waitFor(() => session.calls.prompts, (prompts) => prompts.length === 2);
		expect(session.calls.prompts).toEqual(["first", "second"]);
		runs[1]!.open();
		await waitFor(() => stripVTControlCharacters(output()), (text) => text.includes("echo: second"));
		expect(output().split(DONE).length - 1).toBe(1);

		await typeKeys(stdin, "/quit", "\r");
		expect(await done).toBe(0);
		expect(output()).toContain("\u001b[?1004l");
	});

	it("rings when a run waits for an answer unfocused or after the threshold, never for a question outside a run or with notify off", () => {
		let now = 0;
		const written: string[] = [];
		const bell = new AttentionBell({ write: (text) => written.push(text), setting: { via: "bel", afterSeconds: 10 }, now: () => now });
		bell.waiting("Trust this folder?");
		bell.runStarted();
		bell.waiting("Allow bash to run this command?");
		expect(written).toEqual([]);
		now = 11_000;
		bell.waiting("The agent asks");
		bell.setFocused(false);
		bell.runEnded("aborted");
		expect(written).toEqual(["\u0007"]);
		bell.runStarted();
		bell.waiting("The agent asks");
		expect(written).toEqual(["\u0007", "\u0007"]);
		expect(new AttentionBell({ write: () => {}, setting: "off" }).enabled).toBe(false);
	});

	it("chooses OSC 9 or 777 only where the terminal shows it, BEL elsewhere and inside tmux", () => {
		expect(autoRing({ TERM_PROGRAM: "iTerm.app" })).toBe("osc9");
		expect(autoRing({ VTE_VERSION: "7600" })).toBe("osc777");
		expect(autoRing({ TERM_PROGRAM: "iTerm.app", TMUX: "/tmp/tmux-1/default,1,0" })).toBe("bel");
		expect(autoRing({ TERM: "xterm-256color" })).toBe("bel");
		expect(ringSequence("osc777", "loom is waiting: Allow bash?\u001b[31m;x")).toBe("\u001b]777;notify;loom;loom is waiting: Allow bash?,x\u0007");
		expect(ringSequence("bel", "anything")).toBe("\u0007");
	});
});
