// End to end in a real terminal: in plan mode the model presents a plan, the screen shows it with its three
// answers, and "implement" goes on in the same session with auto approval, the plan's steps as the todo list shown
// above the editor while the run goes on.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSessionFile } from "../../src/core/index.js";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { sessionFiles } from "../support/loom-process.js";
import { hasTmux } from "../support/tmux-terminal.js";

const PLAN = "# Greeting\n\n1. Write greet.txt\n2. Check it";

describe.skipIf(!hasTmux())("plan mode in a terminal (tmux)", () => {
	const { server, workspace, open } = useLoomInTmux("loom-plan");

	it("shows the presented plan; implement runs it in the same session with the plan as the todo list", async () => {
		const ws = workspace();
		const { terminal } = open({ workspace: ws, args: ["--approval", "plan"] });
		await terminal.waitForScreen((text) => text.includes("Ask loom") && text.includes("plan (shift+tab)"), "the editor in plan mode");

		server.enqueue(
			{ toolCalls: [{ id: "p1", name: "present_plan", arguments: { plan: PLAN } }] },
			{ toolCalls: [{ id: "w1", name: "write", arguments: { path: "greet.txt", content: "hello\n" } }] },
			{ text: "Greeted." },
		);
		// The request after the approval is answered only once the test has seen the todo list: the run goes on meanwhile.
		let release = () => {};
		const held = new Promise<void>((resolve) => (release = resolve));
		server.setResponder(async (_body, index) => {
			if (index === 1) await held;
			return undefined;
		});
		await terminal.typeLine("add a greeting");
		let text = await terminal.waitForScreen((t) => t.includes("The agent's plan: implement it?"), "the plan's question");
		expect(text).toContain("1. Write greet.txt");
		expect(text).toContain("Implement it (auto: changes run without asking)");
		expect(text).toContain("Implement it, asking for each change");
		expect(text).toContain("Keep planning, with a note for the agent");

		terminal.sendKeys("Enter");
		text = await terminal.waitForScreen((t) => t.includes("Todo 0/2 done") && t.includes("○ Check it"), "the todo list during the run");
		expect(text).toContain("○ Write greet.txt");
		expect(text).toContain("auto (shift+tab)");
		release();

		await terminal.waitForScreen((t) => t.includes("Greeted.") && t.includes("ready"), "the implemented plan");
		expect(readFileSync(join(ws.cwd, "greet.txt"), "utf8")).toBe("hello\n");
		expect(JSON.stringify(server.requests[1]!.body.messages)).toContain("The user approved the plan");
		terminal.sendKeys("C-d");
		await terminal.waitForScreen((t) => t.includes("[loom exited with 0]"), "loom exiting");
		// The same session: one file, holding the approved plan and its todo list.
		const files = sessionFiles(ws.home);
		expect(files).toHaveLength(1);
		const entries = (await loadSessionFile(files[0]!)).entries;
		expect(entries.find((entry) => entry.type === "plan")).toMatchObject({ plan: PLAN });
		expect(entries.find((entry) => entry.type === "todo")).toMatchObject({ items: [{ text: "Write greet.txt" }, { text: "Check it" }] });
	});
});
