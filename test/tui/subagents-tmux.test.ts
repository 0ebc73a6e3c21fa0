// A subagent in a real terminal: the task call's row shows the child's own calls nested under it while it runs,
// and one line of what it did once it is done; Ctrl+O prints its calls and answer in full.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { hasTmux } from "../support/tmux-terminal.js";

describe.skipIf(!hasTmux())("subagents on the screen (tmux)", () => {
	const { server, workspace, open } = useLoomInTmux("loom-subagents");

	it("nests the child's rows live under the task row, collapses them to one line, and Ctrl+O shows them in full", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "alpha.txt"), "alpha\n");
		let release!: () => void;
		const held = new Promise<void>((resolve) => (release = resolve));
		server.setResponder(async (body) => {
			const messages = body.messages as { role: string; content: unknown }[];
			const prompt = String(messages.find((message) => message.role === "user")?.content ?? "");
			const results = messages.filter((message) => message.role === "tool").length;
			if (prompt.includes("survey the project")) {
				return results === 0 ? { toolCalls: [{ id: "call-t", name: "task", arguments: { description: "survey", prompt: "read alpha.txt and grep it" } }] } : { text: "Survey complete." };
			}
			if (results === 0) return { toolCalls: [{ id: "c1", name: "read", arguments: { path: "alpha.txt" } }] };
			if (results === 1) {
				// The child's second turn waits until the test has seen its first call nested under the task row.
				await held;
				return { toolCalls: [{ id: "c2", name: "bash", arguments: { command: "echo looked" } }] };
			}
			return { text: "alpha holds one line" };
		});
		const { terminal } = open({ workspace: ws, args: ["--sandbox", "off"] });
		await terminal.waitForScreen((text) => text.includes("Ask loom"), "the editor");
		await terminal.typeLine("survey the project");

		const live = await terminal.waitForScreen((text) => /task general: survey/.test(text) && /✓ read alpha\.txt/.test(text), "the child's read nested under the task row");
		const lines = live.split("\n");
		const taskLine = lines.findIndex((line) => /task general: survey/.test(line));
		const readLine = lines.findIndex((line) => /✓ read alpha\.txt/.test(line));
		expect(readLine).toBeGreaterThan(taskLine);
		release();

		const done = await terminal.waitForScreen((text) => text.includes("Survey complete.") && text.includes("ready"), "the parent's answer");
		expect(done).toMatch(/general: 2 tool calls, \d+ tokens/);
		expect(done).not.toMatch(/✓ read alpha\.txt/);
		// Ctrl+O prints the child's calls and its answer in full.
		terminal.sendKeys("C-o");
		const expanded = await terminal.waitForScreen((text) => /✓ read alpha\.txt/.test(text) && /✓ bash echo looked/.test(text), "the child's calls in full");
		expect(expanded).toContain("alpha holds one line");
		await terminal.typeLine("/quit");
		await terminal.waitForScreen((text) => text.includes("[loom exited with 0]"), "loom exiting");
	});
});
