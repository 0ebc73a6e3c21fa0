// End to end: checkpoints recorded by print-mode runs (and the fallback where git is missing, with the built binary:
// git is found on the process's PATH), --prune-checkpoints, --export of a real run and --fork <session>:<entry>, the
// others in-process through the CLI's I/O seam (the cases that need no model are in offline-commands.test.ts).
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeTree } from "../support/project-tree.js";
import { workspace } from "../support/temp-dir.js";
import { runLoomInProcess } from "../support/loom-in-process.js";
import { runLoom, serverFlags, sessionFiles, sessionLines, useScriptedServer } from "../support/loom-process.js";

const server = useScriptedServer();

function checkpointLogs(home: string): any[][] {
	const root = join(home, "checkpoints");
	if (!existsSync(root)) return [];
	return readdirSync(root).flatMap((project) => {
		const dir = join(root, project, "sessions");
		return existsSync(dir) ? readdirSync(dir).map((name) => readFileSync(join(dir, name), "utf8").trimEnd().split("\n").map((line) => JSON.parse(line))) : [];
	});
}

function writeTurns(path: string, content: string) {
	server.enqueue({ toolCalls: [{ name: "write", arguments: { path, content } }] }, { text: "written" });
}

describe("checkpoints from print mode", () => {
	it("records the work tree before and after the run in the shadow repository, quietly", async () => {
		const ws = workspace();
		writeTurns("notes.md", "hello\n");
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl, { checkpoints: true }), "write notes"], ws);
		expect(result.code).toBe(0);
		expect(result.stderr).toBe("");
		const [log] = checkpointLogs(ws.home);
		expect(log![0]).toMatchObject({ file: sessionFiles(ws.home)[0] });
		const run = Object.assign({}, ...log!.slice(1));
		expect(run).toMatchObject({ mode: "tree", before: expect.stringMatching(/^[0-9a-f]{40}$/), after: expect.stringMatching(/^[0-9a-f]{40}$/) });
		expect(run.before).not.toBe(run.after);
		expect(run.prompt).toBe(sessionLines(sessionFiles(ws.home)[0]!).find((line) => line.message?.role === "user").id);
	});

	it("says once on stderr that only write and edit can be restored when git is missing, and keeps their pre-images", async () => {
		const ws = workspace();
		writeTurns("notes.md", "hello\n");
		const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl, { checkpoints: true }), "write notes"], { ...ws, env: { PATH: "/nonexistent" } });
		expect(result.code).toBe(0);
		expect(result.stderr).toBe(
			"loom: warning: Checkpoints: git is not installed, so the working tree is not snapshotted; /rewind can restore only files changed by write and edit, not what bash changed.\n",
		);
		const run = Object.assign({}, ...checkpointLogs(ws.home)[0]!.slice(1));
		expect(run).toMatchObject({ mode: "files", preimage: { path: "notes.md", existed: false, base: "" }, afterHashes: { "notes.md": expect.any(String) } });
	});
});

describe("checkpoints of a project outside git, run after run", () => {
	it("leave out node_modules unasked, and name a file over the size limit once, not on every run", async () => {
		const ws = workspace();
		writeTree(ws.cwd, {
			"package.json": "{}\n",
			"src/app.js": "app\n",
			"node_modules/dep/index.js": "dep\n",
			"node_modules/dep/native.node": Buffer.alloc(2 * 1024 * 1024, 0),
			"data/blob.bin": Buffer.alloc(2 * 1024 * 1024, 0),
		});
		// Each run writes a file: a run whose tools only read takes no snapshot at all.
		let count = 0;
		const run = async () => {
			writeTurns("notes.txt", `run ${count++}\n`);
			const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl, { checkpoints: true }), "hi"], ws);
			expect(result.code).toBe(0);
			return result.stderr;
		};
		expect(await run()).toBe(
			"loom: Checkpoints leave out files over the size limit, which /rewind cannot restore: data/blob.bin (2.0 MB, binary).\n",
		);
		expect(await run()).toBe("");
		expect(await run()).toBe("");
	});
});

describe("--prune-checkpoints", () => {
	it("removes the checkpoints of a deleted session and says what it freed", async () => {
		const ws = workspace();
		writeTurns("a.txt", "a\n");
		// A process of its own: pruning spares the checkpoints of a writer still running (this one would be).
		await runLoom(["-p", ...serverFlags(server.openaiBaseUrl, { checkpoints: true }), "write a"], ws);
		const kept = await runLoomInProcess(["--prune-checkpoints"], ws);
		expect(kept).toMatchObject({ code: 0, stdout: "Removed the checkpoints of 0 prompts (0 whole sessions, 0 project folders); freed 0 B.\n" });

		rmSync(sessionFiles(ws.home)[0]!);
		const pruned = await runLoomInProcess(["--prune-checkpoints", "7"], ws);
		expect(pruned.code).toBe(0);
		expect(pruned.stdout).toMatch(/^Removed the checkpoints of 1 prompt \(1 whole session, 1 project folder\); freed \d+(\.\d)? (B|KB|MB)\.\n$/);
		expect(readdirSync(join(ws.home, "checkpoints"))).toEqual([]);
	});
});

describe("--export", () => {
	it("writes the session as an HTML page to the file named, or to loom-session-<id>.html, and prints where", async () => {
		const ws = workspace();
		server.enqueue({ text: "an **answer**" });
		await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl, { checkpoints: true }), "a question"], ws);
		const id = sessionLines(sessionFiles(ws.home)[0]!)[0].id as string;

		const named = await runLoomInProcess(["--export", id.slice(0, 8), "out/page.html"], ws);
		expect(named).toMatchObject({ code: 0, stdout: `${join(ws.cwd, "out/page.html")}\n` });
		const html = readFileSync(join(ws.cwd, "out/page.html"), "utf8");
		expect(html).toContain("a question");
		expect(html).toContain("an <strong>answer</strong>");

		const plain = await runLoomInProcess(["--export", id], ws);
		expect(plain.stdout).toBe(`${join(ws.cwd, `loom-session-${id.slice(0, 8)}.html`)}\n`);
	});
});

describe("--fork <session>:<entry>", () => {
	it("continues in a new session holding the conversation up to that entry; the original stays as it was", async () => {
		const ws = workspace();
		server.enqueue({ text: "first answer" }, { text: "second answer" });
		await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl, { checkpoints: true }), "first question"], ws);
		await runLoomInProcess(["-p", "-c", ...serverFlags(server.openaiBaseUrl, { checkpoints: true }), "second question"], ws);
		const [original] = sessionFiles(ws.home);
		const before = readFileSync(original!);
		const lines = sessionLines(original!);
		const firstAnswer = lines.find((line) => line.message?.role === "assistant").id as string;

		server.enqueue({ text: "forked answer" });
		const result = await runLoomInProcess(["-p", "--fork", `${lines[0].id}:${firstAnswer}`, ...serverFlags(server.openaiBaseUrl, { checkpoints: true }), "another second question"], ws);
		expect(result.code).toBe(0);
		const sent = server.requests.at(-1)!.body.messages.filter((message: any) => message.role !== "system");
		expect(sent.map((message: any) => message.content)).toEqual(["first question", "first answer", "another second question"]);
		expect(readFileSync(original!)).toEqual(before);
		const fork = sessionFiles(ws.home).find((file) => file !== original)!;
		expect(sessionLines(fork)[0]).toMatchObject({ parentSession: original });

		const missing = await runLoomInProcess(["-p", "--fork", `${lines[0].id}:deadbeef`, ...serverFlags(server.openaiBaseUrl, { checkpoints: true }), "x"], ws);
		expect(missing.code).toBe(2);
		expect(missing.stderr).toContain("has no entry deadbeef to fork from.");
	});
});
