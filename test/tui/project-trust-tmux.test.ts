// End to end in a real terminal (tmux): the screen asks once whether to trust a project that has extensions of
// its own, loads them on a yes, and remembers the answer for the folder.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { waitFor } from "../support/wait-for.js";
import { hasTmux } from "../support/tmux-terminal.js";

const GUARD = `export default function (loom) {
	loom.on("tool_call", (event) => {
		if (event.toolName === "bash" && /rm\\s+-rf/.test(event.input.command)) return { block: true, reason: "blocked by the project's guard" };
		return undefined;
	});
}
`;

describe.skipIf(!hasTmux())("the project trust question in the screen (tmux)", () => {
	const { server, workspace, open } = useLoomInTmux("loom-trust");

	/** A project with an extension of its own. */
	function project() {
		const ws = workspace();
		mkdirSync(join(ws.cwd, ".loom", "extensions"), { recursive: true });
		writeFileSync(join(ws.cwd, ".loom", "extensions", "guard.js"), GUARD);
		return ws;
	}

	it("asks once; a yes loads the project's extension and is remembered, so the next start does not ask", async () => {
		const ws = project();
		const { terminal } = open({ workspace: ws });
		const question = await terminal.waitForScreen((text) => text.includes("Trust this project folder?"), "the trust question");
		expect(question).toContain(".loom/extensions/guard.js");
		expect(question).toContain("Yes, trust this folder and run its code");
		terminal.sendKeys("Enter");
		await terminal.waitForScreen((text) => !text.includes("Trust this project folder?") && text.includes("Ask loom"), "the editor back");
		expect(JSON.parse(readFileSync(join(ws.home, "trust.json"), "utf8"))).toEqual({ [ws.cwd]: true });

		mkdirSync(join(ws.cwd, "data"));
		server.enqueue({ toolCalls: [{ id: "rm", name: "bash", arguments: { command: "rm -rf data" } }] }, { text: "Left it alone." });
		await terminal.typeLine("clean up");
		await terminal.waitForScreen((text) => text.includes("Left it alone.") && text.includes("ready"), "the answer");
		expect(existsSync(join(ws.cwd, "data"))).toBe(true);
		expect(server.requests[1]!.body.messages.find((message: any) => message.role === "tool").content).toBe("blocked by the project's guard");

		// A second start, in a terminal of its own, while the first terminal's server may still be going away.
		const { terminal: again } = open({ workspace: ws });
		await again.waitForScreen((text) => text.includes("Ask loom") && text.includes("ready"), "the editor");
		expect(again.screen()).not.toContain("Trust this project folder?");
	});

	it("a no is remembered and nothing of the project runs", async () => {
		const ws = project();
		const { terminal } = open({ workspace: ws });
		const question = await terminal.waitForScreen((text) => text.includes("Trust this project folder?"), "the trust question");
		// One key answers, and the keys are shown.
		expect(question).toContain("[n] No, do not run it");
		terminal.sendKeys("n");
		await terminal.waitForScreen((text) => !text.includes("Trust this project folder?") && text.includes("Ask loom"), "the editor back");
		// The answer is saved once the question has closed, not necessarily before the screen is drawn again.
		const trust = join(ws.home, "trust.json");
		await waitFor(() => existsSync(trust), (saved) => saved, { what: "trust.json" });
		expect(JSON.parse(readFileSync(trust, "utf8"))).toEqual({ [ws.cwd]: false });

		mkdirSync(join(ws.cwd, "data"));
		server.enqueue({ toolCalls: [{ id: "rm", name: "bash", arguments: { command: "rm -rf data" } }] }, { text: "Removed." });
		await terminal.typeLine("clean up");
		await terminal.waitForScreen((text) => text.includes("Removed.") && text.includes("ready"), "the answer");
		expect(existsSync(join(ws.cwd, "data"))).toBe(false);
	});
});
