// End to end: `loom -r` on a real terminal (a pty from util-linux `script`), answering the session picker.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspace, type Workspace } from "../support/temp-dir.js";
import { sleep } from "../support/wait-for.js";
import { runLoomInProcess } from "../support/loom-in-process.js";
import { cleanEnv, LOOM_BIN, serverFlags, useScriptedServer } from "../support/loom-process.js";

const hasScript = (() => {
	try {
		execFileSync("script", ["--version"], { stdio: "ignore" });
		return true;
	} catch {
		return false;
	}
})();

const server = useScriptedServer();

const quote = (arg: string) => `'${arg.replace(/'/g, "'\\''")}'`;

/** Runs loom on a pty; once the picker asks, types `keys`, one by one. Resolves with loom's exit code and what the terminal showed. */
function pickOnTerminal(args: string[], ws: Workspace, ...keys: string[]): Promise<{ code: number | null; screen: string }> {
	mkdirSync(join(ws.home, "user-home"), { recursive: true });
	const command = [process.execPath, LOOM_BIN, ...args].map(quote).join(" ");
	const child = spawn("script", ["-qec", command, "/dev/null"], {
		cwd: ws.cwd,
		env: { ...cleanEnv(ws.home), SHELL: "/bin/sh", TERM: "dumb" },
		stdio: ["pipe", "pipe", "pipe"],
	});
	let screen = "";
	let typed = false;
	child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
		screen += chunk;
		if (!typed && screen.includes("Resume which session?")) {
			typed = true;
			void (async () => {
				for (const key of keys) {
					child.stdin.write(key);
					await sleep(100);
				}
			})();
		}
	});
	const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
	return new Promise((resolve) => {
		child.on("close", (code) => {
			clearTimeout(timer);
			child.stdin.destroy();
			resolve({ code, screen });
		});
	});
}

describe.skipIf(!hasScript)("loom -r on a terminal", () => {
	/** Two sessions to pick from, written by loom in-process: only the picker needs the terminal. */
	async function withTwoSessions(): Promise<Workspace> {
		const ws = workspace();
		server.enqueue({ text: "one" }, { text: "two" });
		expect((await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "first prompt"], ws)).code).toBe(0);
		expect((await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "second prompt"], ws)).code).toBe(0);
		return ws;
	}

	it("resumes the session picked with the arrows from a list, newest first", async () => {
		const ws = await withTwoSessions();
		server.enqueue({ text: "three" });
		const result = await pickOnTerminal(["-p", "-r", ...serverFlags(server.openaiBaseUrl), "third"], ws, "\u001b[B", "\r");
		expect(result.screen).toContain("second prompt");
		expect(result.code).toBe(0);
		expect(JSON.stringify(server.requests[2]!.body.messages)).toContain("first prompt");
	});

	it("filters the list as you type", async () => {
		const ws = await withTwoSessions();
		server.enqueue({ text: "three" });
		const result = await pickOnTerminal(["-p", "-r", ...serverFlags(server.openaiBaseUrl), "third"], ws, "firs", "\r");
		expect(result.code).toBe(0);
		expect(JSON.stringify(server.requests[2]!.body.messages)).toContain("first prompt");
	});

	it("Esc cancels, as Ctrl+C does: one line saying no session was chosen, exit 130, not a usage error", async () => {
		const ws = await withTwoSessions();
		const result = await pickOnTerminal(["-p", "-r", ...serverFlags(server.openaiBaseUrl), "third"], ws, "\u001b");
		expect(result.code).toBe(130);
		expect(result.screen).toContain("loom: No session chosen.");
		expect(result.screen).not.toContain("--help");
		expect(server.requests).toHaveLength(2);
	});

	it("Ctrl+C at the question exits 130 without running anything", async () => {
		const ws = await withTwoSessions();
		const result = await pickOnTerminal(["-p", "-r", ...serverFlags(server.openaiBaseUrl), "third"], ws, "\u0003");
		expect(result.code).toBe(130);
		expect(result.screen).toContain("loom: interrupted");
		expect(server.requests).toHaveLength(2);
	});

	it("Ctrl+D at the question cancels like Esc: no session chosen, exit 130", async () => {
		const ws = await withTwoSessions();
		const result = await pickOnTerminal(["-p", "-r", ...serverFlags(server.openaiBaseUrl), "third"], ws, "\u0004");
		expect(result.code).toBe(130);
		expect(result.screen).toContain("No session chosen");
		expect(result.screen).not.toContain("Aborted with");
		expect(server.requests).toHaveLength(2);
	});
});
