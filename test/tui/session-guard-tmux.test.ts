// End to end in a real terminal (tmux): what the screen does to keep a session file whole. Leaving with two
// Ctrl+C during a tool records the tool's result; opening a session another loom is writing offers a fork.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { holdSession, runLoom, serverFlags, sessionFiles, sessionMessages as messagesOf } from "../support/loom-process.js";
import { type TmuxTerminal, hasTmux } from "../support/tmux-terminal.js";

describe.skipIf(!hasTmux())("the screen keeps the session file whole (tmux)", () => {
	const loom = useLoomInTmux("loom-guard");
	const server = loom.server;
	let terminal: TmuxTerminal;

	/** A fresh project and LOOM_HOME; `open` starts loom in tmux there with extra arguments. */
	function workspace() {
		const ws = loom.workspace();
		const open = (args: string[]) => {
			({ terminal } = loom.open({ workspace: ws, args, joinWrapped: true }));
		};
		return { ...ws, open };
	}

	/** One finished exchange on disk, and another loom continuing that session. */
	async function sessionInUse(ws: { cwd: string; home: string }) {
		server.enqueue({ text: "Paris." });
		expect((await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "capital of France?"], ws)).code).toBe(0);
		const [file] = sessionFiles(ws.home);
		return { file: file!, holder: await holdSession(server, ws) };
	}

	it("two Ctrl+C during a tool leave the screen with the tool's result in the session file", async () => {
		const ws = workspace();
		const started = join(ws.cwd, "started");
		server.enqueue({ toolCalls: [{ id: "call_slow", name: "bash", arguments: { command: `trap '' INT TERM; touch ${started}; sleep 30` } }] });
		ws.open([]);
		await terminal.waitForScreen((text) => text.includes("Ask loom"), "the editor");
		await terminal.typeLine("run the slow thing");
		const deadline = Date.now() + 15_000;
		while (!existsSync(started)) {
			if (Date.now() > deadline) throw new Error("the command never started");
			await new Promise((r) => setTimeout(r, 20));
		}
		terminal.sendKeys("C-c");
		await new Promise((r) => setTimeout(r, 50));
		terminal.sendKeys("C-c");
		await terminal.waitForScreen((text) => text.includes("[loom exited with"), "loom exiting");

		const [file] = sessionFiles(ws.home);
		const messages = messagesOf(file!);
		expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(messages[2]).toMatchObject({ toolCallId: "call_slow", isError: true });
		expect(existsSync(`${file}.lock`)).toBe(false);
	});

	it("asks to fork a session another loom is writing, and forks it when told yes", async () => {
		const ws = workspace();
		const { file, holder } = await sessionInUse(ws);
		try {
			ws.open(["-c"]);
			await terminal.waitForScreen((text) => text.includes("Continue from it in a new session (a fork)?"), "the fork question");
			expect(terminal.screen()).toContain(`is open in another loom process (pid ${holder.child.pid})`);
			expect(terminal.screen()).toMatch(/› \[y\] Yes/);
			expect(terminal.screen()).toMatch(/\[n\] No/);
			// One key answers: no Enter after it.
			terminal.sendKeys("y");
			await terminal.waitForScreen((text) => text.includes("Ask loom"), "the screen on the fork");
			server.setDefaultTurn({ text: "About 2 million." });
			await terminal.typeLine("and its population?");
			await terminal.waitForScreen((text) => text.includes("About 2 million."), "the answer in the fork");
			expect(server.requests.at(-1)!.body.messages.map((m: any) => m.content)).toContain("Paris.");
			terminal.sendKeys("C-d");
			await terminal.waitForScreen((text) => text.includes("[loom exited with 0]"), "loom exiting");
		} finally {
			holder.child.kill("SIGINT");
			await holder.done;
		}
		const fork = sessionFiles(ws.home).find((name) => name !== file)!;
		expect(JSON.parse(readFileSync(fork, "utf8").split("\n")[0]!)).toMatchObject({ parentSession: file });
		expect(readFileSync(file, "utf8")).not.toContain("and its population?");
	});

	it("leaves without opening anything when the fork is declined", async () => {
		const ws = workspace();
		const { holder } = await sessionInUse(ws);
		try {
			ws.open(["-c"]);
			await terminal.waitForScreen((text) => text.includes("[n] No"), "the fork question");
			terminal.sendKeys("n");
			const text = await terminal.waitForScreen((t) => t.includes("[loom exited with"), "loom exiting");
			expect(text).toContain("[loom exited with 1]");
			// In the scrollback: the pane's own closing line may push the first line off the screen.
			expect(terminal.history()).toMatch(/is in use by another loom process/);
		} finally {
			holder.child.kill("SIGINT");
			await holder.done;
		}
		expect(sessionFiles(ws.home)).toHaveLength(1);
	});
});
