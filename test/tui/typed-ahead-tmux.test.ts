// Keys typed while loom starts, in a real terminal (tmux): they wait for the screen and reach the editor as typed
// (Enter included), nothing is echoed over the screen to come, and Ctrl+C still stops loom before the screen is up.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { count, hasTmux } from "../support/tmux-terminal.js";
import { waitFor } from "../support/wait-for.js";

/** An extension that holds the session's assembly (so the screen) until the file LOOM_TEST_GO exists. */
const HOLDING_EXTENSION = `import { existsSync, writeFileSync } from "node:fs";
export default async function () {
	writeFileSync(process.env.LOOM_TEST_LOADING, "");
	while (!existsSync(process.env.LOOM_TEST_GO)) await new Promise((resolve) => setTimeout(resolve, 20));
}
`;

/** The text of the last user message of a Responses or Chat Completions request. */
function promptOf(body: unknown): string {
	const items = ((body as { input?: unknown[]; messages?: unknown[] }).input ?? (body as { messages?: unknown[] }).messages ?? []) as { role?: string; content?: unknown }[];
	const content = items.filter((item) => item.role === "user").at(-1)?.content;
	if (typeof content === "string") return content;
	return ((content ?? []) as { text?: string }[]).map((part) => part.text ?? "").join("");
}

describe.skipIf(!hasTmux())("keys typed while loom starts (tmux)", () => {
	const loom = useLoomInTmux("loom-typed-ahead");
	const server = loom.server;

	/** Starts loom held at its extension's load; resolves once it is loading, with the function that lets it go on. */
	async function openHeld(args: string[] = [], settings?: object) {
		const ws = loom.workspace();
		if (settings) writeFileSync(join(ws.home, "settings.json"), JSON.stringify(settings));
		const extension = join(ws.cwd, "holding.mjs");
		writeFileSync(extension, HOLDING_EXTENSION);
		const loading = join(ws.home, "loading");
		const go = join(ws.home, "go");
		const { terminal } = loom.open({ workspace: ws, args: ["-e", extension, ...args], env: { LOOM_TEST_LOADING: loading, LOOM_TEST_GO: go } });
		await waitFor(() => existsSync(loading), Boolean, { what: "the extension to start loading" });
		return { terminal, cwd: ws.cwd, release: () => writeFileSync(go, "") };
	}

	it("sends a prompt typed with Enter the moment loom is started, before anything is drawn", async () => {
		server.enqueue({ text: "Answer to the early prompt." });
		const { terminal } = loom.open();
		// Typed apart from Enter, as a person types, while loom (or even node) is still starting.
		terminal.sendKeys("-l", "hi there");
		terminal.sendKeys("Enter");
		await terminal.waitForScreen((text) => text.includes("Answer to the early prompt."), "the answer");
		expect(server.requests).toHaveLength(1);
		expect(promptOf(server.requests[0].body)).toBe("hi there");
	});

	it("sends a prompt sent while the session loads once; the screen shows it and its answer once, the keys after it in the editor", async () => {
		const { terminal, release } = await openHeld();
		server.enqueue({ text: "Answer to the held prompt." });
		terminal.sendKeys("-l", "held prompt");
		terminal.sendKeys("Enter");
		terminal.sendKeys("-l", "draft after");
		release();
		const screen = await terminal.waitForScreen((text) => text.includes("Answer to the held prompt.") && text.includes("› draft after"), "the answer and the draft");
		expect(server.requests).toHaveLength(1);
		expect(promptOf(server.requests[0].body)).toBe("held prompt");
		expect(count(terminal.history(), "› held prompt")).toBe(1);
		expect(count(terminal.history(), "Answer to the held prompt.")).toBe(1);
		// Up recalls it, as a prompt sent from the editor.
		terminal.sendKeys("C-u");
		await terminal.waitForScreen((text) => !text.includes("› draft after"), "the draft cleared");
		terminal.sendKeys("Up");
		await terminal.waitForScreen((text) => count(text, "› held prompt") === 2, "the prompt recalled into the editor");
		expect(screen).toContain("› held prompt");
	});

	it("asks in the screen the approval that a prompt sent while the session loads needs", async () => {
		const { terminal, cwd, release } = await openHeld(["--approval", "ask"]);
		server.enqueue({ text: "Making it.", toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "echo made > made.txt" } }] });
		server.enqueue({ text: "Made the file." });
		terminal.sendKeys("-l", "make a file");
		terminal.sendKeys("Enter");
		release();
		await terminal.waitForScreen((text) => text.includes("Allow bash to run this command?"), "the approval question");
		terminal.sendKeys("Enter");
		await terminal.waitForScreen((text) => text.includes("Made the file.") && text.includes("Ask loom"), "the answer after the command");
		expect(existsSync(join(cwd, "made.txt"))).toBe(true);
		expect(server.requests).toHaveLength(2);
		expect(count(terminal.history(), "make a file")).toBe(1);
	});

	it("gives a prompt sent while the session loads back to the editor when it cannot start, saying why once", async () => {
		const block = { type: "command", command: `echo "prompts wait for review" >&2; exit 2` };
		const { terminal, release } = await openHeld([], { hooks: { UserPromptSubmit: [{ hooks: [block] }] } });
		terminal.sendKeys("-l", "blocked words");
		terminal.sendKeys("Enter");
		release();
		const screen = await terminal.waitForScreen((text) => text.includes("prompts wait for review") && text.includes("› blocked words") && text.includes("ready"), "the reason and the prompt back in the editor");
		expect(count(terminal.history(), "prompts wait for review")).toBe(1);
		expect(screen).toMatch(/│› blocked words/);
		expect(server.requests).toHaveLength(0);
	});

	it("keeps keys typed while the session loads for the editor, echoing none of them above the screen", async () => {
		const { terminal, release } = await openHeld();
		terminal.sendKeys("-l", "draft-words");
		release();
		// The screen's editor (its footer says ready), not the first frame's, which draws the words too.
		const screen = await terminal.waitForScreen((text) => text.includes("› draft-words") && text.includes("ready"), "the typed words in the screen's editor");
		// Read by loom, not echoed by the terminal (an echo would stay above the screen): the editor's copy only.
		expect(count(terminal.history(), "draft-words")).toBe(1);
		expect(screen).not.toContain("Answer");
		expect(server.requests).toHaveLength(0);
	});

	it("stops loom on Ctrl+C while the session loads, as the terminal's interrupt would (exit 130)", async () => {
		const { terminal } = await openHeld();
		terminal.sendKeys("C-c");
		await terminal.waitForScreen((text) => text.includes("[loom exited with 130]"), "loom's exit");
		// The history: the pane's "dead" line may have scrolled the first line off the screen.
		expect(terminal.history()).toContain("loom: interrupted");
	});
});
