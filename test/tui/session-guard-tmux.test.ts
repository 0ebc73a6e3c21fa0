// End to end in a real terminal (tmux): what the screen does to keep a session file whole. Leaving with two
// Ctrl+C during a tool records the tool's result; opening a session another loom is writing offers a fork.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LOOM_BIN, ensureBuilt, runLoom, serverFlags, sessionFiles, startLoom } from "../cli/loom-process.js";
import { type ScriptedModelServer, startScriptedModelServer } from "../support/scripted-model-server.mjs";

function hasTmux(): boolean {
	try {
		execFileSync("tmux", ["-V"], { stdio: "ignore" });
		return true;
	} catch {
		return false;
	}
}

const SOCKET = `loom-guard-${process.pid}`;
const SESSION = "loom";

function tmux(...args: string[]): string {
	return execFileSync("tmux", ["-u", "-L", SOCKET, "-f", "/dev/null", ...args], { encoding: "utf8" });
}

const screen = () => tmux("capture-pane", "-p", "-J", "-t", SESSION);

async function waitForScreen(check: (text: string) => boolean, what: string, timeoutMs = 20_000): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const text = screen();
		if (check(text)) return text;
		if (Date.now() > deadline) throw new Error(`The screen never showed ${what}. It shows:\n${text}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

async function typeLine(text: string): Promise<void> {
	tmux("send-keys", "-t", SESSION, "-l", text);
	await new Promise((resolve) => setTimeout(resolve, 150));
	tmux("send-keys", "-t", SESSION, "Enter");
}

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

function messagesOf(file: string): any[] {
	return readFileSync(file, "utf8")
		.trimEnd()
		.split("\n")
		.map((line) => JSON.parse(line))
		.filter((line) => line.type === "message")
		.map((line) => line.message);
}

describe.skipIf(!hasTmux())("the screen keeps the session file whole (tmux)", () => {
	let server: ScriptedModelServer;
	let root: string;
	let run = 0;

	beforeAll(async () => {
		await ensureBuilt();
		server = await startScriptedModelServer();
		root = mkdtempSync(join(tmpdir(), "loom-guard-"));
	}, 120_000);

	afterEach(() => {
		try {
			tmux("kill-server");
		} catch {}
		server.reset();
	});

	afterAll(() => {
		server?.close();
		if (root) rmSync(root, { recursive: true, force: true });
	});

	/** A fresh project and LOOM_HOME; `open` starts loom in tmux there with extra arguments. */
	function workspace() {
		const dir = join(root, String(run++));
		const ws = { cwd: join(dir, "project"), home: join(dir, "loom-home") };
		mkdirSync(ws.cwd, { recursive: true });
		mkdirSync(join(ws.home, "user-home"), { recursive: true });
		const open = (args: string[]) => {
			const env = [`PATH=${process.env.PATH ?? "/usr/bin:/bin"}`, `HOME=${join(ws.home, "user-home")}`, `LOOM_HOME=${ws.home}`, "TERM=xterm-256color", "LANG=C.UTF-8"];
			const loom = ["env", "-i", ...env, process.execPath, LOOM_BIN, ...serverFlags(server.openaiBaseUrl), ...args].map(shellQuote).join(" ");
			tmux("new-session", "-d", "-s", SESSION, "-x", "100", "-y", "30", "-c", ws.cwd, `${loom}; echo "[loom exited with $?]"`);
			tmux("set-option", "-t", SESSION, "remain-on-exit", "on");
			tmux("set-option", "-s", "escape-time", "10");
		};
		return { ...ws, open };
	}

	it("two Ctrl+C during a tool leave the screen with the tool's result in the session file", async () => {
		const ws = workspace();
		const started = join(ws.cwd, "started");
		server.enqueue({ toolCalls: [{ id: "call_slow", name: "bash", arguments: { command: `trap '' INT TERM; touch ${started}; sleep 30` } }] });
		ws.open([]);
		await waitForScreen((text) => text.includes("Ask loom"), "the editor");
		await typeLine("run the slow thing");
		const deadline = Date.now() + 15_000;
		while (!existsSync(started)) {
			if (Date.now() > deadline) throw new Error("the command never started");
			await new Promise((r) => setTimeout(r, 20));
		}
		tmux("send-keys", "-t", SESSION, "C-c");
		await new Promise((r) => setTimeout(r, 50));
		tmux("send-keys", "-t", SESSION, "C-c");
		await waitForScreen((text) => text.includes("[loom exited with"), "loom exiting", 15_000);

		const [file] = sessionFiles(ws.home);
		const messages = messagesOf(file!);
		expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(messages[2]).toMatchObject({ toolCallId: "call_slow", isError: true });
		expect(existsSync(`${file}.lock`)).toBe(false);
	}, 60_000);

	it("asks to fork a session another loom is writing, and forks it when told yes", async () => {
		const ws = workspace();
		server.enqueue({ text: "Paris." });
		expect((await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "capital of France?"], ws)).code).toBe(0);
		const [file] = sessionFiles(ws.home);
		server.enqueue({ text: "word ", endless: true, chunkDelayMs: 10 });
		const holder = startLoom(["--mode", "json", "-c", ...serverFlags(server.openaiBaseUrl), "talk"], ws);
		try {
			await holder.waitForStdout('"text_delta"');
			ws.open(["-c"]);
			await waitForScreen((text) => text.includes("Continue from it in a new session (a fork)? [Y/n]"), "the fork question");
			expect(screen()).toContain(`is open in another loom process (pid ${holder.child.pid})`);
			await typeLine("y");
			await waitForScreen((text) => text.includes("Ask loom"), "the screen on the fork");
			server.setDefaultTurn({ text: "About 2 million." });
			await typeLine("and its population?");
			await waitForScreen((text) => text.includes("About 2 million."), "the answer in the fork");
			expect(server.requests.at(-1)!.body.messages.map((m: any) => m.content)).toContain("Paris.");
			tmux("send-keys", "-t", SESSION, "C-d");
			await waitForScreen((text) => text.includes("[loom exited with 0]"), "loom exiting");
		} finally {
			holder.child.kill("SIGINT");
			await holder.done;
		}
		const fork = sessionFiles(ws.home).find((name) => name !== file)!;
		expect(JSON.parse(readFileSync(fork, "utf8").split("\n")[0]!)).toMatchObject({ parentSession: file });
		expect(readFileSync(file, "utf8")).not.toContain("and its population?");
	}, 60_000);

	it("leaves without opening anything when the fork is declined", async () => {
		const ws = workspace();
		server.enqueue({ text: "Paris." });
		expect((await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "capital of France?"], ws)).code).toBe(0);
		server.enqueue({ text: "word ", endless: true, chunkDelayMs: 10 });
		const holder = startLoom(["--mode", "json", "-c", ...serverFlags(server.openaiBaseUrl), "talk"], ws);
		try {
			await holder.waitForStdout('"text_delta"');
			ws.open(["-c"]);
			await waitForScreen((text) => text.includes("[Y/n]"), "the fork question");
			await typeLine("n");
			const text = await waitForScreen((t) => t.includes("[loom exited with"), "loom exiting");
			expect(text).toContain("[loom exited with 1]");
			expect(text).toMatch(/is in use by another loom process/);
		} finally {
			holder.child.kill("SIGINT");
			await holder.done;
		}
		expect(sessionFiles(ws.home)).toHaveLength(1);
	}, 60_000);
});
