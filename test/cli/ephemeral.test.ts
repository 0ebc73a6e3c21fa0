// --ephemeral and SessionManager.inMemory(): nothing is written under loom's home or the project. Each case runs a
// prompt whose tool call would take a checkpoint and whose skill file draws a remembered warning, and compares a
// listing of both folders (every path, size and time) before and after; the same run without the flag is the control.
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { workspace, type Workspace } from "../support/temp-dir.js";
import { serverFlags, useScriptedServer } from "../support/loom-process.js";
import { runLoomInProcess } from "../support/loom-in-process.js";
import { scriptedSdkSession } from "../support/sdk-session.js";
import { SessionManager } from "../../src/sdk/session-manager.js";

const server = useScriptedServer();

/** Every file and folder under `root`, with its size and modification time. */
function listing(root: string): string[] {
	const out: string[] = [];
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const path = join(dir, entry.name);
			const stat = statSync(path);
			out.push(`${relative(root, path)} ${entry.isDirectory() ? "dir" : stat.size} ${stat.mtimeMs}`);
			if (entry.isDirectory()) walk(path);
		}
	};
	walk(root);
	return out.sort();
}

function project(): Workspace {
	const ws = workspace();
	writeFileSync(join(ws.cwd, "a.txt"), "alpha\n");
	// A skill file loom warns about: print mode remembers such warnings in reported-warnings.json.
	mkdirSync(join(ws.cwd, ".loom", "skills", "broken"), { recursive: true });
	writeFileSync(join(ws.cwd, ".loom", "skills", "broken", "SKILL.md"), "---\nname: [unclosed\n---\n");
	mkdirSync(join(ws.home, "user-home"), { recursive: true });
	return ws;
}

/** A bash call (it may change files, so it waits for a checkpoint), then the answer. */
function scriptRun(): void {
	server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "cat a.txt" } }] }, { text: "done" });
}

describe("nothing written", () => {
	it("loom -p --ephemeral leaves loom's home and the project as they were; without it, the same run writes both kinds of state", async () => {
		const control = project();
		scriptRun();
		const before = listing(control.home);
		const wrote = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl, { checkpoints: true }), "look"], control);
		expect(wrote.code).toBe(0);
		const added = listing(control.home).filter((line) => !before.includes(line)).map((line) => line.split(" ")[0]);
		expect(added).toEqual(expect.arrayContaining(["sessions", "checkpoints", "reported-warnings.json"]));

		const ws = project();
		scriptRun();
		const [home, cwd] = [listing(ws.home), listing(ws.cwd)];
		const result = await runLoomInProcess(["-p", "--ephemeral", ...serverFlags(server.openaiBaseUrl, { checkpoints: true }), "look"], ws);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("done\n");
		expect(result.stderr).toContain("SKILL.md");
		expect(listing(ws.home)).toEqual(home);
		expect(listing(ws.cwd)).toEqual(cwd);
	});

	it("a session from SessionManager.inMemory() writes no checkpoint and no file under loom's home", async () => {
		const ws = project();
		const [home, cwd] = [listing(ws.home), listing(ws.cwd)];
		const { session } = await scriptedSdkSession(server, { sessionManager: SessionManager.inMemory(ws.cwd) }, ws);
		scriptRun();
		try {
			const outcome = await session.runPrompt("look");
			expect(outcome.status).toBe("done");
		} finally {
			session.dispose();
		}
		expect(server.requests).toHaveLength(2);
		expect(listing(ws.home)).toEqual(home);
		expect(listing(ws.cwd)).toEqual(cwd);
	});

	it("refuses --ephemeral with a session to open", async () => {
		const ws = workspace();
		const result = await runLoomInProcess(["-p", "--ephemeral", "-c", "x"], ws);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("--ephemeral cannot be combined with --continue.");
	});
});
