import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectTree } from "../../support/project-tree.js";
import { FakeSession } from "../fake-session.js";
import { mount } from "../mount-app.js";

const ENTER = "\r";
const ESC = "\u001b";
const TAB = "\t";
const DOWN = "\u001b[B";

function sessionIn(files: string[]): FakeSession {
	const root = projectTree(Object.fromEntries(files.map((file) => [file, ""])));
	writeFileSync(join(root, ".gitignore"), "dist/\n");
	const session = new FakeSession();
	session.cwd = root;
	session.commands.register({ name: "review", description: "review the diff (a prompt template)", source: "prompt", handler: (_args, ctx) => ctx.notify("info", "reviewing") });
	return session;
}

async function ready(files: string[] = []) {
	const session = sessionIn(files);
	const screen = mount(session);
	await screen.until((f) => f.includes("Ask loom"));
	return { session, screen };
}

describe("the command popup", () => {
	it("lists the commands with their arguments and descriptions as soon as / is typed, and narrows as you type", async () => {
		const { screen } = await ready();
		await screen.type("/");
		let frame = await screen.until((f) => f.includes("/model <id>"));
		expect(frame).toContain("switch the model");
		// More commands than rows: the popup says how many there are, the screen's own /help among them.
		expect(frame).toMatch(/1\/\d+ · tab\/enter complete/);
		await screen.type("he");
		frame = await screen.until((f) => f.includes("› /help"));
		await screen.type("\u007f\u007f", "rev");
		frame = await screen.until((f) => f.includes("› /review") && !f.includes("/model <id>"));
		expect(frame).toContain("review the diff (a prompt template)");
	});

	it("Tab completes the highlighted command; Enter on a command without arguments runs it", async () => {
		const { screen, session } = await ready();
		await screen.type("/mo", TAB);
		await screen.until((f) => f.includes("› /model ") && !f.includes("switch the model"));
		await screen.type("bigger", ENTER);
		await screen.until((f) => f.includes("Model: test/bigger"));
		expect(session.calls.models).toEqual(["bigger"]);
		await screen.type("/revi", ENTER);
		await screen.until((f) => f.includes("· reviewing"));
	});

	it("arrows move in the list instead of the history; Esc closes it without clearing the text", async () => {
		const { screen } = await ready();
		await screen.type("/", DOWN);
		await screen.until((f) => /› \/thinking|› \/model/.test(f) && !/› \/new/.test(f));
		await screen.type(ESC);
		const frame = await screen.until((f) => !f.includes("switch the model"));
		expect(frame).toContain("› /");
	});

	it("Enter on a command typed in full sends it as typed", async () => {
		const { screen } = await ready();
		await screen.type("/session", ENTER);
		await screen.until((f) => f.includes("Session file:"));
	});
});

describe("@ file completion", () => {
	it("offers the project's files fuzzily, leaving out ignored ones, and puts the chosen path in", async () => {
		const { screen, session } = await ready(["src/tui/editor-state.ts", "src/core/agent.ts", "dist/editor-state.js", "README.md"]);
		await screen.type("explain @edst");
		let frame = await screen.until((f) => f.includes("› src/tui/editor-state.ts"));
		expect(frame).not.toContain("dist/");
		// A short list gets the same key hint as the command popup.
		expect(frame).toMatch(/1\/1\+? · tab\/enter complete · esc close/);
		await screen.type(TAB);
		frame = await screen.until((f) => f.includes("› explain @src/tui/editor-state.ts"));
		await screen.type("please", ENTER);
		// The file goes along (see file-mentions.test.tsx), the prompt as typed after it.
		await screen.until((f) => f.includes("› explain @src/tui/editor-state.ts please") && f.includes("attached src/tui/editor-state.ts"));
		expect(session.calls.prompts).toEqual([`<file name="${join(session.cwd, "src/tui/editor-state.ts")}">\n\n</file>\n\nexplain @src/tui/editor-state.ts please`]);
	});

	it("Enter on a path typed in full sends the prompt rather than completing it again", async () => {
		const { screen, session } = await ready(["notes.md"]);
		await screen.type("read @notes.md");
		await screen.until((f) => f.includes("  › notes.md") || f.includes("› notes.md\n"));
		await screen.type(ENTER);
		await screen.until(() => session.calls.prompts.length === 1);
		expect(session.calls.prompts[0]).toContain("read @notes.md");
	});
});

describe("Tab on a path", () => {
	it("completes the path under the cursor, and lists the choices when there are several", async () => {
		const { screen } = await ready(["src/components/Editor.tsx", "src/editor-keys.ts", "src/editor-state.ts"]);
		await screen.type("open sr", TAB);
		await screen.until((f) => f.includes("› open src/"));
		await screen.type("edi", TAB);
		await screen.until((f) => f.includes("› open src/editor-"));
		await screen.type(TAB);
		let frame = await screen.until((f) => f.includes("src/editor-keys.ts") && f.includes("src/editor-state.ts"));
		await screen.type(DOWN, ENTER);
		frame = await screen.until((f) => f.includes("› open src/editor-state.ts"));
		expect(frame).not.toContain("src/editor-keys.ts");
	});

	it("writes a path with blanks as a shell would, and a second Tab goes on inside the folder", async () => {
		const { screen } = await ready(["dir with space/file name.txt"]);
		await screen.type("cat dir", TAB);
		await screen.until((f) => f.includes("› cat dir\\ with\\ space/"));
		await screen.type(TAB);
		await screen.until((f) => f.includes("› cat dir\\ with\\ space/file\\ name.txt"));
	});
});

describe("@ file completion of a path with blanks", () => {
	it("puts the chosen file in quoted, and Tab after @ goes on inside a quoted folder", async () => {
		const { screen } = await ready(["dir with space/file name.txt", "dir with space/other.txt"]);
		await screen.type("look at @filena");
		await screen.until((f) => f.includes("› dir with space/file name.txt"));
		await screen.type(TAB);
		await screen.until((f) => f.includes('› look at @"dir with space/file name.txt"'));
		await screen.type("\u0015", "@dir", ESC, TAB);
		await screen.until((f) => f.includes('› @"dir with space/'));
		await screen.type("oth", ESC, TAB);
		await screen.until((f) => f.includes('› @"dir with space/other.txt"'));
	});
});
