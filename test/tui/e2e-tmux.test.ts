// End to end in a real pseudo-terminal: the built `loom` inside tmux, against the scripted model server.
// Types like a user (tmux send-keys) and reads the screen like one (tmux capture-pane).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sessionIdFromFileName } from "../../src/core/session/store/session-paths.js";
import { sessionFiles } from "../support/loom-process.js";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { type TmuxTerminal, count, hasTmux } from "../support/tmux-terminal.js";
import { sleep } from "../support/wait-for.js";

describe.skipIf(!hasTmux())("loom in a terminal (tmux)", () => {
	const { server, workspace, open } = useLoomInTmux("loom-e2e");
	let terminal: TmuxTerminal;
	let ws: ReturnType<typeof workspace>;

	beforeAll(() => {
		ws = workspace();
		writeFileSync(join(ws.cwd, "README.md"), "# demo\n");
		// The shell prints loom's exit code when it ends; the pane stays to read it.
		({ terminal } = open({ workspace: ws }));
	});

	it("streams an answer with tool rows, stops a slow stream on Esc, and exits on Ctrl+D saying how to resume", async () => {
		await terminal.waitForScreen((text) => text.includes("Ask loom") && text.includes("ready"), "the editor and the footer");
		expect(terminal.screen()).toContain("openai/scripted");

		server.enqueue({ text: "Checking.", toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "echo hello-from-bash node-env-${NODE_ENV:-unset}" } }] });
		server.enqueue({ text: "The answer is **42**.\n\n- first point\n- second point" });
		await terminal.typeLine("what is the answer");
		let text = await terminal.waitForScreen((t) => t.includes("The answer is 42.") && t.includes("ready"), "the answer");
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
		await terminal.typeLine("tell me everything");
		await terminal.waitForScreen((t) => t.includes("The end.") && t.includes("ready"), "the end of the long answer", 60_000);
		const scrollback = terminal.history();
		// Every line exactly once: nothing lost, nothing duplicated by redraws taller than the terminal.
		for (const paragraph of paragraphs) expect(count(scrollback, paragraph)).toBe(1);
		for (const line of code) expect(count(scrollback, line)).toBe(1);
		expect(count(scrollback, "The answer is 42.")).toBe(1);

		server.enqueue({ text: "still streaming ", endless: true, chunkSize: 6, chunkDelayMs: 30 });
		await terminal.typeLine("write forever");
		await terminal.waitForScreen((t) => t.includes("still streaming") && t.includes("esc to interrupt"), "the slow stream");
		// Resizing while the live area redraws must not duplicate what is already in the scrollback.
		terminal.resize(70, 24);
		await sleep(300);
		terminal.resize(100, 30);
		await sleep(600);
		await terminal.waitForScreen((t) => t.includes("esc to interrupt"), "the stream after resizing");
		terminal.sendKeys("Escape");
		text = await terminal.waitForScreen((t) => t.includes("Interrupted.") && t.includes("ready"), "the interrupted run");
		expect(text).not.toContain("esc to interrupt");
		const afterResize = terminal.history();
		expect(count(afterResize, "› write forever")).toBe(1);
		expect(count(afterResize, "The answer is 42.")).toBe(1);
		expect(count(afterResize, paragraphs[39])).toBe(1);
		// No leftovers of the live area (the editor's top border) from before the resize.
		expect(count(afterResize, "╭")).toBe(1);

		terminal.sendKeys("C-d");
		await terminal.waitForScreen((t) => t.includes("[loom exited with"), "loom exiting");
		expect(terminal.screen()).toContain("[loom exited with 0]");
		// The transcript stays in the terminal; the editor and footer are gone.
		const after = terminal.screen();
		expect(after).toContain("Interrupted.");
		expect(after).not.toContain("Ask loom");
		// And the way back, once the screen is gone.
		const [file] = sessionFiles(ws.home);
		expect(after).toContain(`Resume this session with: loom --session ${sessionIdFromFileName(file!)}`);
	}, 120_000);
});
