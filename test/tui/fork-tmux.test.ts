// Forks in the real screen (tmux): a new session says its file comes with the first message, /fork and --fork name
// the new session's id and file and the session it came from, and a fork is on disk at once, so quitting keeps it
// and `loom -r` offers it.
import { existsSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { runLoom, serverFlags, sessionFiles, sessionLines } from "../support/loom-process.js";
import type { Workspace } from "../support/temp-dir.js";
import { type TmuxTerminal, count, hasTmux } from "../support/tmux-terminal.js";

/** The screen's text with line breaks and runs of spaces as one space: a long path may start a line of its own. */
const flat = (text: string) => text.replace(/\s+/g, " ");

describe.skipIf(!hasTmux())("forking in the screen (tmux)", () => {
	const { server, workspace, open } = useLoomInTmux("loom-fork");
	let ws: Workspace;
	let terminal: TmuxTerminal;

	beforeEach(() => {
		ws = workspace();
	});

	const start = (...args: string[]) => {
		({ terminal } = open({ workspace: ws, args, columns: 200, rows: 40 }));
	};
	const quit = async () => {
		terminal.sendKeys("C-d");
		await terminal.waitForScreen((text) => text.includes("[loom exited with 0]"), "loom exiting");
	};

	it("says a new session's file comes with the first message; /fork names the fork and its parent, and the fork outlives a quit", async () => {
		start();
		const first = await terminal.waitForScreen((text) => text.includes("ready") && text.includes("(created with the first message)"), "the editor and the notice");
		expect(flat(first)).toMatch(/· Session \/\S+\.jsonl \(created with the first message\)/);
		expect(sessionFiles(ws.home)).toEqual([]);

		server.enqueue({ text: "First answer." });
		await terminal.typeLine("make a");
		await terminal.waitForScreen((text) => text.includes("First answer.") && text.includes("ready"), "the answer");
		const [parent] = sessionFiles(ws.home);
		const parentId = sessionLines(parent!)[0].id;

		await terminal.typeLine("/fork");
		await terminal.waitForScreen((text) => text.includes("Fork from where?"), "the fork picker");
		terminal.sendKeys("Enter");
		const forked = await terminal.waitForScreen((text) => text.includes("goes back to the session it was forked from"), "the fork's notices");
		const fork = sessionFiles(ws.home).find((file) => file !== parent)!;
		const forkId = sessionLines(fork)[0].id;
		expect(flat(forked)).toContain(`Forked into new session ${forkId} with 2 messages · ${fork} Forked from ${parent}, which stays as it was.`);
		expect(flat(forked)).toContain(`/resume ${parentId} goes back to the session it was forked from.`);

		await quit();
		expect(sessionLines(fork)[0]).toMatchObject({ type: "session", id: forkId, parentSession: parent });
		expect(sessionLines(fork).filter((line) => line.type === "message")).toHaveLength(2);

		// `loom -r` offers both; the fork, written last, comes first.
		start("-r");
		const picker = await terminal.waitForScreen((text) => text.includes("Resume which session?"), "the session picker");
		expect(count(picker, "make a")).toBe(2);
		terminal.sendKeys("Enter");
		await terminal.waitForScreen((text) => flat(text).includes(`Resumed session with 2 messages · ${fork}`), "the fork resumed");
		await quit();
	});

	it("--fork says which session it forked into and from, and the fork is kept without a new message", async () => {
		server.enqueue({ text: "Answer." });
		expect((await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "a question"], ws)).code).toBe(0);
		const before = sessionFiles(ws.home);
		const parent = before[0]!;
		const parentId = sessionLines(parent)[0].id;

		start("--fork", parentId);
		const screen = await terminal.waitForScreen((text) => text.includes("Forked into new session") && text.includes("ready"), "the fork's notice");
		const fork = sessionFiles(ws.home).find((file) => !before.includes(file))!;
		expect(existsSync(fork)).toBe(true);
		expect(flat(screen)).toContain(`Forked into new session ${sessionLines(fork)[0].id} with 2 messages · ${fork} Forked from ${parent}, which stays as it was.`);
		await quit();
		expect(sessionLines(fork).filter((line) => line.type === "message")).toHaveLength(2);
	});
});
