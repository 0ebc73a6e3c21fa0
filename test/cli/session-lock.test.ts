// End to end: a session file has one writer at a time. A second loom on the same session is refused (print mode)
// with the way out, --fork, which continues a copy in a new file and leaves the original untouched. The holder is a
// loom process; the runs beside it go in-process, through the CLI's I/O seam (a process of another pid all the same).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { runLoomInProcess } from "../support/loom-in-process.js";
import { holdSession, serverFlags, sessionFiles, useScriptedServer } from "../support/loom-process.js";
import { workspace } from "../support/temp-dir.js";
import { sessionLines as fileLines, sessionMessages } from "../support/loom-process.js";

const server = useScriptedServer();

const roles = (file: string) => sessionMessages(file).map((message) => message.role);

/** One finished exchange on disk; returns the session file and its id. */
async function firstSession(ws: { cwd: string; home: string }): Promise<{ file: string; id: string }> {
	server.enqueue({ text: "Paris." });
	expect((await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "capital of France?"], ws)).code).toBe(0);
	const [file] = sessionFiles(ws.home);
	return { file: file!, id: fileLines(file!)[0].id };
}

describe("one writer per session", () => {
	it("refuses a second loom continuing a session in use, naming --fork; the first keeps writing alone", async () => {
		const ws = workspace();
		const { file, id } = await firstSession(ws);
		const holder = await holdSession(server, ws);

		const second = await runLoomInProcess(["-p", "--session", id.slice(0, 8), ...serverFlags(server.openaiBaseUrl), "me too"], ws);
		expect(second.code).toBe(1);
		expect(second.stderr).toContain(`session ${id} is in use by another loom process (pid ${holder.child.pid})`);
		expect(second.stderr).toContain(`loom --fork ${id}`);
		const alsoContinue = await runLoomInProcess(["-p", "-c", ...serverFlags(server.openaiBaseUrl), "me too"], ws);
		expect(alsoContinue.code).toBe(1);
		expect(alsoContinue.stderr).toMatch(/is in use/);

		holder.child.kill("SIGINT");
		expect((await holder.done).code).toBe(130);
		// Only the holder wrote: its prompt and its aborted answer follow the first exchange, nothing interleaved.
		expect(roles(file)).toEqual(["user", "assistant", "user", "assistant"]);
		expect(JSON.stringify(fileLines(file))).not.toContain("me too");
		expect(existsSync(`${file}.lock`)).toBe(false);
	});

	it("takes over the lock of a loom that was killed", async () => {
		const ws = workspace();
		const { file } = await firstSession(ws);
		const killed = await holdSession(server, ws);
		killed.child.kill("SIGKILL");
		await killed.done;
		expect(existsSync(`${file}.lock`)).toBe(true);

		server.enqueue({ text: "back" });
		const resumed = await runLoomInProcess(["-p", "-c", ...serverFlags(server.openaiBaseUrl), "again"], ws);
		expect(resumed.stderr).toBe("");
		expect(resumed.code).toBe(0);
		expect(resumed.stdout).toBe("back\n");
		expect(roles(file)).toEqual(["user", "assistant", "user", "user", "assistant"]);
	});

	it("treats a lock naming a process that is not running here as stale, and one from another host as held", async () => {
		const ws = workspace();
		const { file } = await firstSession(ws);
		writeFileSync(`${file}.lock`, JSON.stringify({ pid: 2 ** 22 + 17, host: hostname() }));
		server.enqueue({ text: "fine" });
		const result = await runLoomInProcess(["-p", "-c", ...serverFlags(server.openaiBaseUrl), "again"], ws);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("fine\n");

		// Whether a process on another machine (a shared home) still runs cannot be known: the lock stands.
		writeFileSync(`${file}.lock`, JSON.stringify({ pid: 2 ** 22 + 17, host: "another-machine" }));
		const remote = await runLoomInProcess(["-p", "-c", ...serverFlags(server.openaiBaseUrl), "again"], ws);
		expect(remote.code).toBe(1);
		expect(remote.stderr).toMatch(/is in use by another loom process .*delete .*\.lock/);
	});
});

describe("--fork <session>", () => {
	it("continues a copy of the conversation in a new file that names its parent; the original is untouched", async () => {
		const ws = workspace();
		const { file, id } = await firstSession(ws);
		const before = readFileSync(file, "utf8");
		server.enqueue({ text: "About 2 million." });
		const fork = await runLoomInProcess(["-p", "--fork", id.slice(0, 8), ...serverFlags(server.openaiBaseUrl), "and its population?"], ws);
		expect(fork.stderr).toBe("");
		expect(fork.code).toBe(0);
		expect(fork.stdout).toBe("About 2 million.\n");
		expect(readFileSync(file, "utf8")).toBe(before);

		const forked = sessionFiles(ws.home).find((name) => name !== file)!;
		const [header, ...entries] = fileLines(forked);
		expect(header).toMatchObject({ type: "session", parentSession: file, cwd: ws.cwd });
		expect(header.id).not.toBe(id);
		expect(entries.filter((e) => e.type === "message").map((e) => e.message.role)).toEqual(["user", "assistant", "user", "assistant"]);
		// The copied entries keep their ids and chain; the new ones continue it.
		const original = fileLines(file).slice(1);
		expect(entries.slice(0, original.length)).toEqual(original);
		expect(entries[original.length].parentId).toBe(original.at(-1).id);
		expect(server.requests[1]!.body.messages.map((m: any) => m.role)).toEqual(["system", "user", "assistant", "user"]);
	});

	it("forks a session that another loom is using", async () => {
		const ws = workspace();
		const { file, id } = await firstSession(ws);
		const holder = await holdSession(server, ws);
		server.setDefaultTurn({ text: "forked answer" });
		const fork = await runLoomInProcess(["-p", "--fork", file, ...serverFlags(server.openaiBaseUrl), "a side question"], ws);
		expect(fork.code).toBe(0);
		expect(fork.stdout).toBe("forked answer\n");
		holder.child.kill("SIGINT");
		await holder.done;
		const forked = sessionFiles(ws.home).filter((name) => name !== file);
		expect(forked).toHaveLength(1);
		expect(fileLines(forked[0]!)[0]).toMatchObject({ parentSession: file });
		expect(fileLines(forked[0]!)[0].id).not.toBe(id);
		expect(JSON.stringify(fileLines(file))).not.toContain("a side question");
	});

	it("leaves no fork behind when the session cannot be assembled (a usage error)", async () => {
		const ws = workspace();
		const { file, id } = await firstSession(ws);
		const result = await runLoomInProcess(["-p", "--fork", id, "--tools", "nosuch", ...serverFlags(server.openaiBaseUrl), "x"], ws);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("unknown tool nosuch");
		expect(sessionFiles(ws.home)).toEqual([file]);
		expect(existsSync(`${file}.lock`)).toBe(false);
	});

	it("refuses a --fork of something that is not a session, as a usage error", async () => {
		const ws = workspace();
		const result = await runLoomInProcess(["-p", "--fork", "/etc/hostname", ...serverFlags(server.openaiBaseUrl), "x"], ws);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/not a loom session file/);
	});
});
