// The editor's first frame, drawn before the session and the screen load, in a real terminal (tmux): it shows while
// the session loads, with the keys typed meanwhile; the screen replaces it with no trace left, and anything written
// before the screen is up (an extension's output) takes its place instead of being drawn over it.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { count, hasTmux } from "../support/tmux-terminal.js";
import { waitFor } from "../support/wait-for.js";

/** An extension that may write a line to stderr, then holds the session's assembly until the file LOOM_TEST_GO exists. */
const HOLDING_EXTENSION = `import { existsSync, writeFileSync } from "node:fs";
export default async function () {
	if (process.env.LOOM_TEST_SAY) process.stderr.write(process.env.LOOM_TEST_SAY + "\\n");
	writeFileSync(process.env.LOOM_TEST_LOADING, "");
	while (!existsSync(process.env.LOOM_TEST_GO)) await new Promise((resolve) => setTimeout(resolve, 20));
}
`;

describe.skipIf(!hasTmux())("the editor's first frame (tmux)", () => {
	const loom = useLoomInTmux("loom-first-frame");

	/** Starts loom held at its extension's load; resolves once it is loading, with the function that lets it go on. */
	async function openHeld(env: Record<string, string> = {}) {
		const ws = loom.workspace();
		const extension = join(ws.cwd, "holding.mjs");
		writeFileSync(extension, HOLDING_EXTENSION);
		const loading = join(ws.home, "loading");
		const go = join(ws.home, "go");
		const { terminal } = loom.open({ workspace: ws, args: ["-e", extension], env: { LOOM_TEST_LOADING: loading, LOOM_TEST_GO: go, ...env } });
		await waitFor(() => existsSync(loading), Boolean, { what: "the extension to start loading" });
		return { terminal, release: () => writeFileSync(go, "") };
	}

	it("shows the editor while the session loads; the screen takes its place, one editor on the terminal", async () => {
		const { terminal, release } = await openHeld();
		const early = await terminal.waitForScreen((text) => text.includes("Ask loom · /help for commands"), "the first frame's editor");
		// The session is not there yet: no footer with the model.
		expect(early).not.toContain("openai/");
		release();
		const screen = await terminal.waitForScreen((text) => text.includes("openai/") && text.includes("Ask loom"), "the screen with its footer");
		expect(count(screen, "╭")).toBe(1);
		expect(count(terminal.history(), "Ask loom")).toBe(1);
		terminal.sendKeys("-l", "typed");
		await terminal.waitForScreen((text) => text.includes("› typed"), "a key drawn in the screen's editor");
	});

	it("draws the keys typed while the session loads in its editor, and the screen's editor takes them over", async () => {
		const { terminal, release } = await openHeld();
		await terminal.waitForScreen((text) => text.includes("Ask loom · /help for commands"), "the first frame's editor");
		terminal.sendKeys("-l", "draftx");
		await terminal.waitForScreen((text) => text.includes("› draftx") && !text.includes("Ask loom"), "the keys in the first frame's editor");
		terminal.sendKeys("BSpace");
		await terminal.waitForScreen((text) => text.includes("› draft") && !text.includes("› draftx"), "Backspace in the first frame's editor");
		// A key it does not draw (an arrow's sequence) leaves the row as it was; the screen's editor reads it.
		terminal.sendKeys("Left");
		terminal.sendKeys("-l", "ed");
		release();
		const screen = await terminal.waitForScreen((text) => text.includes("openai/") && text.includes("› drafedt"), "the screen's editor with the keys typed");
		expect(count(screen, "╭")).toBe(1);
		// The first frame's editor, "draft" in it, left no trace.
		expect(terminal.history()).not.toContain("› draft");
	});

	it("makes way for what is written before the screen is up, which stays once, above the screen", async () => {
		const { terminal, release } = await openHeld({ LOOM_TEST_SAY: "the extension speaks" });
		await terminal.waitForScreen((text) => text.includes("the extension speaks"), "the extension's line");
		release();
		const screen = await terminal.waitForScreen((text) => text.includes("openai/") && text.includes("Ask loom"), "the screen with its footer");
		expect(count(screen, "╭")).toBe(1);
		const history = terminal.history();
		expect(count(history, "the extension speaks")).toBe(1);
		expect(count(history, "Ask loom")).toBe(1);
	});
});
