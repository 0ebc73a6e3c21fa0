// `!command` and `!!command` from the editor: real shell processes, the screen in Ink over a fake session.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseShellCommand, withShellContext } from "../../../src/tui/editor/shell-command.js";
import { tempDir } from "../../support/temp-dir.js";
import { FakeSession } from "../fake-session.js";
import { mount } from "../mount-app.js";

const ENTER = "\r";
const ESC = "\u001b";

function inProject() {
	const session = new FakeSession();
	session.cwd = tempDir("loom-shell-");
	writeFileSync(join(session.cwd, "notes.txt"), "alpha\nbeta\n");
	return session;
}

describe("parsing", () => {
	it("takes !cmd and !!cmd at the start of the text, nothing else", () => {
		expect(parseShellCommand("!ls -la")).toEqual({ command: "ls -la", forContext: false });
		expect(parseShellCommand("!! git status ")).toEqual({ command: "git status", forContext: true });
		expect(parseShellCommand("!")).toBeUndefined();
		expect(parseShellCommand("say !ls")).toBeUndefined();
	});

	it("puts !! output ahead of the prompt, saying what ran", () => {
		const text = withShellContext("why?", [{ command: "make", forContext: true, output: "error 2\n", exitCode: 2 }]);
		expect(text).toBe("The user ran `make` (exit code 2); its output:\n```\nerror 2\n```\n\nwhy?");
		expect(withShellContext("why?", [])).toBe("why?");
	});
});

describe("!command on the screen", () => {
	it("runs in the session's directory and shows the output, which is not sent to the model", async () => {
		const session = inProject();
		const screen = mount(session);
		await screen.until((f) => f.includes("Ask loom"));
		await screen.type("!cat notes.txt; echo done >&2", ENTER);
		const frame = await screen.until((f) => f.includes("! cat notes.txt; echo done >&2") && f.includes("done"));
		expect(frame).toMatch(/! cat notes\.txt; echo done >&2\n\s+alpha\n\s+beta\n\s+done/);
		expect(session.calls.prompts).toEqual([]);
		await screen.type("next question", ENTER);
		await screen.until((f) => f.includes("echo: next question"));
		expect(session.calls.prompts).toEqual(["next question"]);
	});

	it("shows a failing command's exit code as a bash tool row does, and its output without escape sequences", async () => {
		const session = inProject();
		const screen = mount(session);
		await screen.until((f) => f.includes("Ask loom"));
		await screen.type("!printf 'red \\033[31mtext\\033]0;title\\007\\n'; exit 3", ENTER);
		const frame = await screen.until((f) => /\n  exit 3\n/.test(f));
		expect(frame).toContain("red text");
		expect(screen.printed()).not.toContain("\u001b]0;");
	});

	it("!!command adds its output to the next prompt, once", async () => {
		const session = inProject();
		const screen = mount(session);
		await screen.until((f) => f.includes("Ask loom"));
		await screen.type("!!cat notes.txt", ENTER);
		await screen.until((f) => f.includes("added to your next prompt") && f.includes("beta"));
		expect(session.calls.prompts).toEqual([]);
		await screen.type("summarise", ENTER);
		await screen.until((f) => f.includes("ready") && session.calls.prompts.length === 1);
		expect(session.calls.prompts[0]).toBe("The user ran `cat notes.txt` (exit code 0); its output:\n```\nalpha\nbeta\n```\n\nsummarise");
		// Shown and remembered as typed: the output is already in the transcript, as the command's own row.
		expect(session.promptOptions[0]).toEqual({ typed: "summarise" });
		expect(await screen.until((f) => f.includes("› summarise"))).not.toContain("› The user ran");
		await screen.type("again", ENTER);
		await screen.until(() => session.calls.prompts.length === 2);
		expect(session.calls.prompts[1]).toBe("again");
	});

	it("returns when the shell is done, though a background job it started still holds the output", async () => {
		const session = inProject();
		const screen = mount(session);
		await screen.until((f) => f.includes("Ask loom"));
		const typedAt = Date.now();
		await screen.type("!sleep 100 & echo hi", ENTER);
		const frame = await screen.until((f) => /^\s+hi$/m.test(f) && !f.includes("esc stops it"));
		expect(frame).toContain("! sleep 100 & echo hi");
		expect(Date.now() - typedAt).toBeLessThan(4000);
	});

	it("says why a command could not start, and takes the next one", async () => {
		const session = inProject();
		session.cwd = join(session.cwd, "gone");
		const screen = mount(session);
		await screen.until((f) => f.includes("Ask loom"));
		await screen.type("!ls", ENTER);
		await screen.until((f) => f.includes("Could not run ls: Working directory") && f.includes("does not exist"));
		session.cwd = join(session.cwd, "..");
		await screen.type("!echo again", ENTER);
		await screen.until((f) => /^\s+again$/m.test(f));
	});

	it("shows the command while it runs, and Esc stops it", async () => {
		const session = inProject();
		const screen = mount(session);
		await screen.until((f) => f.includes("Ask loom"));
		await screen.type("!sleep 30; echo never", ENTER);
		await screen.until((f) => f.includes("!sleep 30; echo never") && f.includes("esc stops it"));
		await screen.type(ESC);
		const frame = await screen.until((f) => f.includes("interrupted") && !f.includes("esc stops it"));
		expect(frame).not.toMatch(/^\s+never$/m);
	});
});
