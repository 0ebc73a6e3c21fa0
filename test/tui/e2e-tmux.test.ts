// End to end in a real pseudo-terminal: the built `loom` inside tmux, against the scripted model server.
// Types like a user (tmux send-keys) and reads the screen like one (tmux capture-pane).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScriptedModelServer, startScriptedModelServer } from "../support/scripted-model-server.mjs";
import { LOOM_BIN, ensureBuilt, serverFlags } from "../cli/loom-process.js";
import { hasTmux, shellQuote, tmuxTerminal } from "./tmux.js";

const { session: SESSION, tmux, screen, history, waitForScreen, typeLine } = tmuxTerminal(`loom-e2e-${process.pid}`);

/** Occurrences of `needle`, ignoring how lines were wrapped. */
function count(text: string, needle: string): number {
	const flat = (value: string) => value.replace(/\s+/g, " ");
	return flat(text).split(flat(needle)).length - 1;
}


describe.skipIf(!hasTmux())("loom in a terminal (tmux)", () => {
	let server: ScriptedModelServer;
	let root: string;

	beforeAll(async () => {
		await ensureBuilt();
		server = await startScriptedModelServer();
		root = mkdtempSync(join(tmpdir(), "loom-e2e-"));
		const cwd = join(root, "project");
		const home = join(root, "loom-home");
		mkdirSync(cwd);
		mkdirSync(join(home, "user-home"), { recursive: true });
		writeFileSync(join(cwd, "README.md"), "# demo\n");
		// A clean environment: no API keys from this machine, and no CI variable (Ink draws nothing live in CI).
		const env = [`PATH=${process.env.PATH ?? "/usr/bin:/bin"}`, `HOME=${join(home, "user-home")}`, `LOOM_HOME=${home}`, "TERM=xterm-256color", "LANG=C.UTF-8"];
		const loom = ["env", "-i", ...env, process.execPath, LOOM_BIN, ...serverFlags(server.openaiBaseUrl)].map(shellQuote).join(" ");
		// The shell prints loom's exit code when it ends; remain-on-exit keeps the pane to read it.
		const command = `${loom}; echo "[loom exited with $?]"`;
		tmux("new-session", "-d", "-s", SESSION, "-x", "100", "-y", "30", "-c", cwd, command);
		tmux("set-option", "-t", SESSION, "remain-on-exit", "on");
		tmux("set-option", "-s", "escape-time", "10");
	}, 120_000);

	afterAll(() => {
		try {
			tmux("kill-server");
		} catch {}
		server?.close();
		if (root) rmSync(root, { recursive: true, force: true });
	});

	it("streams an answer with tool rows, stops a slow stream on Esc, and exits on Ctrl+D", async () => {
		await waitForScreen((text) => text.includes("Ask loom") && text.includes("ready"), "the editor and the footer");
		expect(screen()).toContain("openai/scripted");

		server.enqueue({ text: "Checking.", toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "echo hello-from-bash node-env-${NODE_ENV:-unset}" } }] });
		server.enqueue({ text: "The answer is **42**.\n\n- first point\n- second point" });
		await typeLine("what is the answer");
		let text = await waitForScreen((t) => t.includes("The answer is 42.") && t.includes("ready"), "the answer");
		expect(text).toContain("› what is the answer");
		expect(text).toMatch(/✓ bash echo hello-from-bash node-env-\$\{NODE_ENV:-unset\} [\d.]+s/);
		expect(text).toContain("hello-from-bash");
		// The screen loads React's production build, but commands never inherit a NODE_ENV the user did not set.
		expect(text).toContain("hello-from-bash node-env-unset");
		expect(text).toMatch(/exit 0/);
		expect(text).toContain("• first point");
		expect(text.indexOf("Checking.")).toBeLessThan(text.indexOf("✓ bash"));
		expect(text.indexOf("✓ bash")).toBeLessThan(text.indexOf("The answer is 42."));

		// A long answer, far taller than the terminal: prose paragraphs and a code block longer than the screen.
		const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} says something about step ${i} of the plan, at some length so it wraps.`);
		const code = Array.from({ length: 60 }, (_, i) => `const line${i} = ${i};`);
		const long = `${paragraphs.slice(0, 20).join("\n\n")}\n\n\`\`\`ts\n${code.join("\n")}\n\`\`\`\n\n${paragraphs.slice(20).join("\n\n")}\n\nThe end.`;
		server.enqueue({ text: long, chunkSize: 24, chunkDelayMs: 3 });
		await typeLine("tell me everything");
		await waitForScreen((t) => t.includes("The end.") && t.includes("ready"), "the end of the long answer", 60_000);
		const scrollback = history();
		// Every line exactly once: nothing lost, nothing duplicated by redraws taller than the terminal.
		for (const paragraph of paragraphs) expect(count(scrollback, paragraph)).toBe(1);
		for (const line of code) expect(count(scrollback, line)).toBe(1);
		expect(count(scrollback, "The answer is 42.")).toBe(1);

		server.enqueue({ text: "still streaming ", endless: true, chunkSize: 6, chunkDelayMs: 30 });
		await typeLine("write forever");
		await waitForScreen((t) => t.includes("still streaming") && t.includes("esc to interrupt"), "the slow stream");
		// Resizing while the live area redraws must not duplicate what is already in the scrollback.
		tmux("resize-window", "-t", SESSION, "-x", "70", "-y", "24");
		await new Promise((resolve) => setTimeout(resolve, 300));
		tmux("resize-window", "-t", SESSION, "-x", "100", "-y", "30");
		await new Promise((resolve) => setTimeout(resolve, 600));
		await waitForScreen((t) => t.includes("esc to interrupt"), "the stream after resizing");
		tmux("send-keys", "-t", SESSION, "Escape");
		text = await waitForScreen((t) => t.includes("Interrupted.") && t.includes("ready"), "the interrupted run");
		expect(text).not.toContain("esc to interrupt");
		const afterResize = history();
		expect(count(afterResize, "› write forever")).toBe(1);
		expect(count(afterResize, "The answer is 42.")).toBe(1);
		expect(count(afterResize, paragraphs[39])).toBe(1);
		// No leftovers of the live area (the editor's top border) from before the resize.
		expect(count(afterResize, "╭")).toBe(1);

		tmux("send-keys", "-t", SESSION, "C-d");
		await waitForScreen((t) => t.includes("[loom exited with"), "loom exiting", 15_000);
		expect(screen()).toContain("[loom exited with 0]");
		// The transcript stays in the terminal; the editor and footer are gone.
		const after = screen();
		expect(after).toContain("Interrupted.");
		expect(after).not.toContain("Ask loom");
	}, 120_000);
});
