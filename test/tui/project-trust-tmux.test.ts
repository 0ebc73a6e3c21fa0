// End to end in a real terminal (tmux): the screen asks once whether to trust a project that has extensions of
// its own, loads them on a yes, and remembers the answer for the folder.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, serverFlags } from "../support/loom-process.js";
import { type ScriptedModelServer, startScriptedModelServer } from "../support/scripted-model-server.mjs";
import { workspace } from "../support/temp-dir.js";
import { waitFor } from "../support/wait-for.js";
import { TmuxTerminal, hasTmux, loomCommand } from "../support/tmux-terminal.js";

const terminal = new TmuxTerminal("loom-trust");
/** For a second start of loom while the first terminal's server may still be going away. */
const again = new TmuxTerminal("loom-trust-again");

const GUARD = `export default function (loom) {
	loom.on("tool_call", (event) => {
		if (event.toolName === "bash" && /rm\\s+-rf/.test(event.input.command)) return { block: true, reason: "blocked by the project's guard" };
		return undefined;
	});
}
`;

describe.skipIf(!hasTmux())("the project trust question in the screen (tmux)", () => {
	let server: ScriptedModelServer;

	beforeAll(async () => {
		await ensureBuilt();
		server = await startScriptedModelServer();
	}, 120_000);

	afterEach(() => {
		terminal.kill();
		again.kill();
		server.reset();
	});

	afterAll(() => server?.close());

	function project() {
		const ws = workspace();
		mkdirSync(join(ws.home, "user-home"));
		mkdirSync(join(ws.cwd, ".loom", "extensions"), { recursive: true });
		writeFileSync(join(ws.cwd, ".loom", "extensions", "guard.js"), GUARD);
		const open = (on = terminal) => on.start(loomCommand(ws.home, serverFlags(server.openaiBaseUrl)), { cwd: ws.cwd, columns: 100, rows: 30 });
		return { ...ws, open };
	}

	it("asks once; a yes loads the project's extension and is remembered, so the next start does not ask", async () => {
		const ws = project();
		ws.open();
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

		ws.open(again);
		await again.waitForScreen((text) => text.includes("Ask loom") && text.includes("ready"), "the editor");
		expect(again.screen()).not.toContain("Trust this project folder?");
	});

	it("a no is remembered and nothing of the project runs", async () => {
		const ws = project();
		ws.open();
		const question = await terminal.waitForScreen((text) => text.includes("Trust this project folder?"), "the trust question");
		// One key answers, and the keys are shown.
		expect(question).toContain("[n] No, do not run it");
		terminal.sendKeys("n");
		await terminal.waitForScreen((text) => !text.includes("Trust this project folder?") && text.includes("Ask loom"), "the editor back");
		// The answer is saved once the question has closed, not necessarily before the screen is drawn again.
		const trust = join(ws.home, "trust.json");
		await waitFor(() => existsSync(trust), (saved) => saved, { timeoutMs: 5_000, what: "trust.json" });
		expect(JSON.parse(readFileSync(trust, "utf8"))).toEqual({ [ws.cwd]: false });

		mkdirSync(join(ws.cwd, "data"));
		server.enqueue({ toolCalls: [{ id: "rm", name: "bash", arguments: { command: "rm -rf data" } }] }, { text: "Removed." });
		await terminal.typeLine("clean up");
		await terminal.waitForScreen((text) => text.includes("Removed.") && text.includes("ready"), "the answer");
		expect(existsSync(join(ws.cwd, "data"))).toBe(false);
	});
});
