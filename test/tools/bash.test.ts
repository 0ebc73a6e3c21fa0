import { readFileSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type BashToolDetails, BashToolError, createBashTool, killAllBashProcesses } from "../../src/tools/index.js";
import { isGroupAlive } from "../../src/core/lib/process/index.js";
import { commandProcessGroups } from "../../src/tools/run-command.js";
import { tempDir } from "../support/temp-dir.js";
import { waitFor } from "../support/wait-for.js";

function textOf(result: { content: { type: string; text?: string }[] }): string {
	return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** Running, not merely a zombie waiting for init to reap it (which may take a while in a container). */
function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
	} catch {
		return true;
	}
}

async function readPid(file: string): Promise<number> {
	await waitFor(async () => (await fs.readFile(file, "utf8").catch(() => "")).trim().length > 0);
	return Number((await fs.readFile(file, "utf8")).trim());
}

async function failure(promise: Promise<unknown>): Promise<BashToolError> {
	const error = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(BashToolError);
	return error as BashToolError;
}

describe("bash tool: running commands", () => {
	it("runs in the agent's cwd and runs one call at a time", async () => {
		const dir = tempDir();
		const tool = createBashTool(dir);
		expect(tool.executionMode).toBe("sequential");
		const result = await tool.execute("1", { command: "pwd" });
		expect(textOf(result)).toBe(dir);
		expect(result.details).toMatchObject({ exitCode: 0, signal: null, timedOut: false, truncated: false });
		expect(result.details.fullOutputPath).toBeUndefined();
	});

	it("merges stdout and stderr in arrival order", async () => {
		const tool = createBashTool(tempDir());
		const result = await tool.execute("1", { command: "echo out1; sleep 0.1; echo err1 >&2; sleep 0.1; echo out2" });
		expect(textOf(result)).toBe("out1\nerr1\nout2");
	});

	it("closes stdin so a command waiting for input ends at once", async () => {
		const tool = createBashTool(tempDir());
		const result = await tool.execute("1", { command: "cat; read line; echo after" });
		expect(textOf(result)).toBe("after");
	});

	it("says when there is no output and strips terminal colour codes", async () => {
		const tool = createBashTool(tempDir());
		expect(textOf(await tool.execute("1", { command: "true" }))).toBe("(no output)");
		expect(textOf(await tool.execute("2", { command: "printf '\\033[31mred\\033[0m\\n'" }))).toBe("red");
	});

	it("adds configured environment variables and applies a default timeout", async () => {
		const tool = createBashTool(tempDir(), { env: { LOOM_TEST_VALUE: "from-options" }, defaultTimeout: 0.3 });
		expect(textOf(await tool.execute("1", { command: 'echo "$LOOM_TEST_VALUE $HOME"' }))).toBe(`from-options ${process.env.HOME}`);
		const error = await failure(tool.execute("2", { command: "sleep 10" }));
		expect(error.message).toContain("timed out after 0.3 s");
	});

	it("reports a non-zero exit code as an error with the output", async () => {
		const tool = createBashTool(tempDir());
		const error = await failure(tool.execute("1", { command: "echo partial; exit 3" }));
		expect(error.message).toBe("partial\n\nCommand failed with exit code 3.");
		expect(error.details).toMatchObject({ exitCode: 3, signal: null, timedOut: false, aborted: false });
	});

	it("reports death by a signal as an error", async () => {
		const tool = createBashTool(tempDir());
		const error = await failure(tool.execute("1", { command: "echo before; kill -KILL $$" }));
		expect(error.message).toContain("before");
		expect(error.message).toContain("killed by SIGKILL");
		expect(error.details).toMatchObject({ exitCode: null, signal: "SIGKILL" });
	});

	it("refuses a bad timeout and a missing working directory without running anything", async () => {
		const dir = tempDir();
		await expect(createBashTool(dir).execute("1", { command: "touch ran", timeout: -1 })).rejects.toThrow(/positive number of seconds/);
		await expect(createBashTool(dir).execute("1", { command: "  " })).rejects.toThrow(/non-empty string/);
		await expect(createBashTool(dir, { shell: path.join(dir, "no-such-shell") }).execute("1", { command: "touch ran" })).rejects.toThrow(
			/Could not start .*no-such-shell/,
		);
		await expect(createBashTool(path.join(dir, "gone")).execute("1", { command: "touch ran" })).rejects.toThrow(/does not exist/);
		expect(await fs.readdir(dir)).toEqual([]);
	});

	it("reports a command too long for the system briefly, without echoing it back", async () => {
		const dir = tempDir();
		const command = `cat > big.txt <<'END'\n${"x".repeat(300_000)}\nEND`;
		const error = (await createBashTool(dir)
			.execute("1", { command })
			.then(
				() => undefined,
				(e: Error) => e,
			))!;
		expect(error).toBeInstanceOf(Error);
		expect(error.message).toMatch(/too long/);
		expect(error.message).toMatch(/write tool/);
		expect(error.message.length).toBeLessThan(1000);
		const nul = await createBashTool(dir)
			.execute("1", { command: `touch ran\0${"y".repeat(300_000)}` })
			.then(
				() => undefined,
				(e: Error) => e,
			);
		expect(nul?.message).toMatch(/NUL byte/);
		expect(nul!.message.length).toBeLessThan(1000);
		expect(await fs.readdir(dir)).toEqual([]);
	});
});

describe("bash tool: stopping commands", () => {
	it("times out, killing the process group, with the output so far", async () => {
		const dir = tempDir();
		const tool = createBashTool(dir);
		const started = Date.now();
		const error = await failure(tool.execute("1", { command: "echo started; sleep 30 & echo $! > child.pid; wait", timeout: 0.5 }));
		expect(Date.now() - started).toBeLessThan(2500);
		expect(error.message).toContain("started");
		expect(error.message).toContain("timed out after 0.5 s");
		expect(error.details).toMatchObject({ timedOut: true, aborted: false });
		const child = await readPid(path.join(dir, "child.pid"));
		expect(await waitFor(() => !isAlive(child))).toBe(true);
	});

	it("on abort kills the whole tree (the grandchild is gone afterwards)", async () => {
		const dir = tempDir();
		const tool = createBashTool(dir);
		const controller = new AbortController();
		const run = tool.execute("1", { command: "bash -c 'sleep 60 & echo $! > grandchild.pid; wait'; echo never" }, controller.signal);
		const grandchild = await readPid(path.join(dir, "grandchild.pid"));
		expect(isAlive(grandchild)).toBe(true);
		const abortedAt = Date.now();
		controller.abort();
		const error = await failure(run);
		expect(Date.now() - abortedAt).toBeLessThan(2000);
		expect(error.message).toContain("aborted");
		expect(error.message).not.toContain("never");
		expect(error.details.aborted).toBe(true);
		expect(await waitFor(() => !isAlive(grandchild))).toBe(true);
	});

	it("settles within 2 s when everything ignores SIGTERM and holds the pipes, then SIGKILLs them", async () => {
		const dir = tempDir();
		const tool = createBashTool(dir);
		const controller = new AbortController();
		const command = "trap '' TERM; (exec sleep 60) & echo $! > stubborn.pid; echo waiting; wait; wait";
		let live = "";
		const run = tool.execute("1", { command }, controller.signal, (partial) => {
			live = textOf(partial);
		});
		const stubborn = await readPid(path.join(dir, "stubborn.pid"));
		await waitFor(() => live.includes("waiting"));
		const abortedAt = Date.now();
		controller.abort();
		const error = await failure(run);
		expect(Date.now() - abortedAt).toBeLessThan(2000);
		expect(error.message).toContain("waiting");
		expect(await waitFor(() => !isAlive(stubborn))).toBe(true);
	});

	it("settles even when a grandchild that left the group keeps the pipes open", async () => {
		const dir = tempDir();
		const tool = createBashTool(dir);
		// A new session of its own (node's detached spawn calls setsid), but our stdout and stderr pipes.
		await fs.writeFile(
			path.join(dir, "escape.cjs"),
			`const child = require("child_process").spawn("sleep", ["60"], { detached: true, stdio: ["ignore", "inherit", "inherit"] });
require("fs").writeFileSync("escaped.pid", String(child.pid));
child.unref();`,
		);
		const command = `${JSON.stringify(process.execPath)} escape.cjs; echo launched; sleep 30`;
		const controller = new AbortController();
		let live = "";
		const run = tool.execute("1", { command }, controller.signal, (partial) => {
			live = textOf(partial);
		});
		const escaped = await readPid(path.join(dir, "escaped.pid"));
		try {
			await waitFor(() => live.includes("launched"));
			const abortedAt = Date.now();
			controller.abort();
			const error = await failure(run);
			expect(Date.now() - abortedAt).toBeLessThan(2000);
			expect(isAlive(escaped)).toBe(true);
			expect(error.message).toContain("launched");
			expect(error.details.aborted).toBe(true);
		} finally {
			process.kill(escaped, "SIGKILL");
		}
	});

	it("returns when the shell exits even if a background job keeps the pipes open, and kills it on request", async () => {
		const dir = tempDir();
		const tool = createBashTool(dir);
		const started = Date.now();
		const result = await tool.execute("1", { command: "sleep 60 & echo $! > bg.pid; echo main done" });
		expect(Date.now() - started).toBeLessThan(3000);
		expect(textOf(result)).toBe("main done");
		const background = await readPid(path.join(dir, "bg.pid"));
		expect(isAlive(background)).toBe(true);
		expect(commandProcessGroups.tracked().some((pgid) => isGroupAlive(pgid))).toBe(true);
		killAllBashProcesses();
		expect(await waitFor(() => !isAlive(background))).toBe(true);
		expect(commandProcessGroups.tracked()).toEqual([]);
	});

	it("does not start a command when already aborted", async () => {
		const dir = tempDir();
		const controller = new AbortController();
		controller.abort();
		await expect(createBashTool(dir).execute("1", { command: "touch ran" }, controller.signal)).rejects.toThrow(/aborted/);
		expect(await fs.readdir(dir)).toEqual([]);
	});
});

describe("bash tool: output limits and live updates", () => {
	it("returns the last 2000 lines and saves the full output to a file", async () => {
		const tool = createBashTool(tempDir());
		const result = await tool.execute("1", { command: "seq 1 5000" });
		const text = textOf(result);
		const [body, notice] = text.split("\n\n");
		expect(body!.split("\n")).toEqual(Array.from({ length: 2000 }, (_, i) => String(3001 + i)));
		expect(result.details.truncated).toBe(true);
		const fullPath = result.details.fullOutputPath!;
		expect(notice).toContain(`Full output: ${fullPath}`);
		expect(notice).toContain("last 2000 lines");
		const full = await fs.readFile(fullPath, "utf8");
		expect(full.split("\n").length).toBe(5001);
		expect(full.startsWith("1\n2\n3\n")).toBe(true);
		await fs.rm(fullPath);
	});

	it("cuts by bytes at a line boundary", async () => {
		const tool = createBashTool(tempDir());
		const result = await tool.execute("1", { command: "for i in $(seq 1 1000); do printf '%099d\\n' $i; done" });
		const [body] = textOf(result).split("\n\n");
		const lines = body!.split("\n");
		expect(lines.every((line) => line.length === 99)).toBe(true);
		expect(Buffer.byteLength(body!)).toBeLessThanOrEqual(50 * 1024);
		expect(Number(lines.at(-1))).toBe(1000);
		expect(lines.length).toBe(512); // 512 * 100 - 1 = 51199 bytes fit; 513 lines would not
		await fs.rm(result.details.fullOutputPath!);
	});

	it("shows the end of one enormous line", async () => {
		const tool = createBashTool(tempDir());
		const result = await tool.execute("1", { command: "head -c 300000 /dev/zero | tr '\\0' a; echo END" });
		const text = textOf(result);
		expect(text).toContain("aaaaEND\n\n[Output cut: showing the last 50.0 KB of its final line");
		await fs.rm(result.details.fullOutputPath!);
	});

	it("keeps live updates small: the latest 50 lines, however loud the command", async () => {
		const dir = tempDir();
		const updates: string[] = [];
		await createBashTool(dir).execute("t", { command: "seq 1 200000; sleep 0.3" }, undefined, (partial) => updates.push(textOf(partial)));
		expect(updates.length).toBeGreaterThan(0);
		for (const text of updates) {
			expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
			expect(text.split("\n").length).toBeLessThanOrEqual(50);
		}
		expect(updates.at(-1)!.trimEnd().endsWith("200000")).toBe(true);
	});

	it("streams throttled updates carrying the tail of the output", async () => {
		const tool = createBashTool(tempDir());
		const updates: { text: string; details: BashToolDetails; at: number }[] = [];
		const started = Date.now();
		const result = await tool.execute("1", { command: "for i in 1 2 3 4 5 6; do echo tick $i; sleep 0.1; done; seq 1 100000" }, undefined, (partial) => {
			updates.push({ text: textOf(partial), details: partial.details, at: Date.now() });
		});
		await fs.rm(result.details.fullOutputPath!);
		const elapsed = Date.now() - started;
		expect(updates.length).toBeGreaterThanOrEqual(3);
		// About ten a second at most, however fast the output comes.
		expect(updates.length).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 2);
		expect(updates[0]!.text.startsWith("tick 1")).toBe(true);
		expect(updates.some((u) => u.text.includes("tick 3"))).toBe(true);
		for (const update of updates) expect(update.details.exitCode).toBeNull();
		const last = updates.at(-1)!;
		expect(Buffer.byteLength(last.text)).toBeLessThanOrEqual(50 * 1024);
	});
});

describe("bash tool: redacting output", () => {
	it("passes every live update, the result and an error through redact", async () => {
		const redact = (text: string, live: boolean) => text.replaceAll("s3cr3t-value", live ? "[live]" : "[done]");
		const tool = createBashTool(tempDir(), { redact });
		const updates: string[] = [];
		const result = await tool.execute("1", { command: "echo s3cr3t-value; sleep 0.3; echo end" }, undefined, (partial) => updates.push(textOf(partial)));
		expect(updates.length).toBeGreaterThan(0);
		for (const update of updates) expect(update).not.toContain("s3cr3t-value");
		expect(updates[0]).toContain("[live]");
		expect(textOf(result)).toBe("[done]\nend");
		const error = await failure(tool.execute("2", { command: "echo s3cr3t-value; exit 3" }));
		expect(error.message).toContain("[done]");
		expect(error.message).not.toContain("s3cr3t-value");
	});
});
