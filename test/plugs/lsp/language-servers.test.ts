// Language servers in a real session, with the real typescript-language-server (and TypeScript 5's tsserver): an
// edit's result carries the errors it introduced and no others, the lsp tool answers across files, a server that
// dies is reported and the next edit still works, and no server outlives the session. One server for the file.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../../src/core/index.js";
import { scriptedSdkSession } from "../../support/sdk-session.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";

const server = useScriptedServer();
const REPO = resolve(import.meta.dirname, "../../..");
const SERVER = join(REPO, "node_modules", ".bin", "typescript-language-server");
const TSSERVER = join(REPO, "node_modules", "typescript-5", "lib", "tsserver.js");

/** The text of the tool results the model read in request `index`, in order. */
function toolResults(index: number): string[] {
	return server.requests[index]!.body.messages.filter((message: any) => message.role === "tool").map((message: any) => message.content);
}

const edit = (id: string, path: string, oldText: string, newText: string) => ({ toolCalls: [{ id, name: "edit", arguments: { path, edits: [{ oldText, newText }] } }] });

/** Process ids of this process's children running typescript-language-server. */
function serverPids(): number[] {
	try {
		return execFileSync("pgrep", ["-P", String(process.pid), "-f", "typescript-language-server"], { encoding: "utf8" }).trim().split("\n").filter(Boolean).map(Number);
	} catch {
		return [];
	}
}

function groupAlive(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch {
		return false;
	}
}

describe("language servers", () => {
	it("report an edit's new errors (not older ones), answer lsp queries, survive a killed server, and end with the session", async () => {
		const { session, ws, ui } = await scriptedSdkSession(server, {
			tools: ["read", "edit", "write", "lsp"],
			settings: { lsp: { typescript: { command: [SERVER, "--stdio"], initializationOptions: { tsserver: { path: TSSERVER } }, waitMs: 60_000 } } },
		});
		writeFileSync(join(ws.cwd, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, module: "nodenext", target: "es2022", lib: ["es2022"], types: [], skipLibCheck: true, noEmit: true }, include: ["src"] }));
		mkdirSync(join(ws.cwd, "src"));
		writeFileSync(join(ws.cwd, "src", "util.ts"), "export function double(n: number): number {\n\treturn n * 2;\n}\n");
		writeFileSync(join(ws.cwd, "src", "main.ts"), 'import { double } from "./util.js";\nconst old: string = 1;\nexport const x = double(2);\n');
		const ends: SessionEvent[] = [];
		session.subscribe((event) => void (event.type === "tool_execution_end" && ends.push(event)));

		// An edit that adds a type error: the result says so, with the error's place and code, and not the old one.
		server.enqueue(edit("call_1", "src/main.ts", "export const x = double(2);", 'export const x = double(2);\nexport const y: number = "two";'), { text: "ok" });
		await session.prompt("add y");
		const [introduced] = toolResults(1);
		expect(introduced).toContain("1 new error");
		expect(introduced).toContain("src/main.ts:4:14 Type 'string' is not assignable to type 'number'. [2322]");
		expect(introduced).not.toContain("src/main.ts:2");
		const first = ends[0] as any;
		expect(first.result.details.diagnostics).toEqual({ count: 1, lines: ["src/main.ts:4:14 Type 'string' is not assignable to type 'number'. [2322]"] });

		// The fix brings none (the old error is still there, and still not new).
		server.enqueue(edit("call_2", "src/main.ts", '"two"', "2"), { text: "ok" });
		await session.prompt("fix y");
		expect(toolResults(3).at(-1)).not.toContain("language server");
		expect((ends[1] as any).result.details.diagnostics).toBeUndefined();

		// Definition across files, and the file's diagnostics.
		server.enqueue(
			{ toolCalls: [{ id: "call_3", name: "lsp", arguments: { operation: "definition", path: "src/main.ts", line: 3, column: 18 } }] },
			{ toolCalls: [{ id: "call_4", name: "lsp", arguments: { operation: "diagnostics", path: "src/main.ts" } }] },
			{ text: "ok" },
		);
		await session.prompt("where is double");
		expect(toolResults(5).at(-1)).toBe("src/util.ts:1:17: export function double(n: number): number {");
		expect(toolResults(6).at(-1)).toContain("src/main.ts:2:7 Type 'number' is not assignable to type 'string'. [2322]");

		// The server is killed: that is said, and the next edit still succeeds (and a new server checks it).
		const [pid] = serverPids();
		expect(pid).toBeDefined();
		process.kill(-pid!, "SIGKILL");
		await expect.poll(() => ui.notices.map((notice) => notice.text).join("\n")).toContain("The typescript language server was killed by SIGKILL");
		server.enqueue(edit("call_5", "src/main.ts", "const old: string = 1;", "const old: string = 1;\nconst z: boolean = 3;"), { text: "ok" });
		await session.prompt("add z");
		const afterKill = toolResults(8).at(-1)!;
		expect(afterKill).toContain("Edited src/main.ts");
		expect(afterKill).toContain("src/main.ts:3:7 Type 'number' is not assignable to type 'boolean'. [2322]");
		const restarted = serverPids();
		expect(restarted).toHaveLength(1);

		session.dispose();
		await expect.poll(() => groupAlive(restarted[0]!)).toBe(false);
		expect(serverPids()).toEqual([]);
	});

	it("report a server that cannot start once, and the edits go on without it", async () => {
		const { session, ws, ui } = await scriptedSdkSession(server, {
			settings: { lsp: { broken: { command: [process.execPath, "-e", "process.exit(3)"], extensions: [".broken"], waitMs: 60_000 } } },
		});
		const write = (id: string, content: string) => ({ toolCalls: [{ id, name: "write", arguments: { path: "a.broken", content } }] });
		server.enqueue(write("call_1", "one"), write("call_2", "two"), { text: "ok" });
		await session.prompt("write twice");
		expect(toolResults(server.requests.length - 1)).toEqual([expect.stringContaining("a.broken"), expect.stringContaining("a.broken")]);
		expect(readFileSync(join(ws.cwd, "a.broken"), "utf8")).toBe("two");
		const notices = ui.notices.filter((notice) => notice.text.includes("broken language server"));
		expect(notices).toHaveLength(1);
		expect(notices[0]!.text).toContain("did not start: it exited with code 3");
		session.dispose();
	});
});
