// Extensions from the command line: -e paths, loom home's folder, a project's folder in print mode (which cannot
// ask, so needs --trust or the setting, and otherwise says what it skipped). Which extensions load, and what is said
// about them, runs in-process through the CLI's I/O seam; the built loom runs a TypeScript extension end to end,
// and what needs its own process: console output, a FIFO, loading that never ends, handlers that break mid-run.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { setProjectTrust } from "../../src/core/config/project-trust.js";
import { runLoomInProcess } from "../support/loom-in-process.js";
import { workspace, type Workspace } from "../support/temp-dir.js";
import { TmuxTerminal, hasTmux, loomCommand } from "../support/tmux-terminal.js";
import { jsonLines, runLoom, serverFlags, sessionFiles, startLoom, useScriptedServer } from "../support/loom-process.js";

const server = useScriptedServer();

const GUARD = `import type { ExtensionAPI } from "loom";

export default function (loom: ExtensionAPI) {
	loom.on("tool_call", (event) => {
		if (event.toolName === "bash" && /rm\\s+-rf/.test(event.input.command)) {
			return { block: true, reason: "rm -rf is blocked by the team guard; remove files one by one." };
		}
		return undefined;
	});
	loom.on("run_end", () => loom.notify("guard was on duty"));
}
`;

/** The scripted model tries rm -rf on a folder of the workspace, then answers. */
function rmRfTurns(ws: Workspace) {
	mkdirSync(join(ws.cwd, "data"), { recursive: true });
	server.enqueue({ toolCalls: [{ id: "rm", name: "bash", arguments: { command: "rm -rf data" } }] }, { text: "All done." });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const toolResult = () => server.requests[1]?.body.messages.find((message: any) => message.role === "tool")?.content;

describe("-e, --extension", () => {
	it("loads a TypeScript extension whose tool_call handler blocks rm -rf; the model reads why; its notices go to stderr", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "guard.ts"), GUARD);
		rmRfTurns(ws);
		const result = await runLoom(["-p", "-e", "guard.ts", ...serverFlags(server.openaiBaseUrl), "clean up"], ws);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("All done.\n");
		expect(existsSync(join(ws.cwd, "data"))).toBe(true);
		expect(toolResult()).toBe("rm -rf is blocked by the team guard; remove files one by one.");
		expect(result.stderr).toBe("loom: guard was on duty\n");
	});

	it("stops before any prompt, with exit 2, when an extension it names does not load, saying which and why", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "guard.ts"), GUARD);
		writeFileSync(join(ws.cwd, "broken.ts"), "export default function (loom {\n");
		rmRfTurns(ws);
		const result = await runLoomInProcess(["-p", "-e", "guard.ts", "--extension", "broken.ts", "-e", "missing.js", ...serverFlags(server.openaiBaseUrl), "clean up"], ws);
		expect(result.code).toBe(2);
		expect(result.stdout).toBe("");
		expect(server.requests).toHaveLength(0);
		expect(existsSync(join(ws.cwd, "data"))).toBe(true);
		const [line, hint, ...rest] = result.stderr.trimEnd().split("\n");
		expect(line).toMatch(
			new RegExp(
				`^loom: --extension: ${escape(join(ws.cwd, "broken.ts"))} was not loaded: .*Unexpected token.* ${escape(join(ws.cwd, "missing.js"))} was not loaded: No extension at ${escape(join(ws.cwd, "missing.js"))}\\.$`,
			),
		);
		expect(hint).toBe("(run loom --help for usage)");
		expect(rest).toEqual([]);
	});

	it("keeps an extension whose command has a built-in's name: the command is hidden, its hooks stay on", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "guard.ts"), GUARD.replace("export default function (loom: ExtensionAPI) {", 'export default function (loom: ExtensionAPI) {\n\tloom.registerCommand("model", { description: "mine", handler: () => {} });'));
		rmRfTurns(ws);
		const result = await runLoomInProcess(["-p", "-e", "guard.ts", ...serverFlags(server.openaiBaseUrl), "clean up"], ws);
		expect(result.code).toBe(0);
		expect(toolResult()).toBe("rm -rf is blocked by the team guard; remove files one by one.");
		expect(result.stderr).toBe(
			`loom: warning: /model from ${join(ws.cwd, "guard.ts")} is hidden by the built-in command of that name; rename it to use it.\nloom: guard was on duty\n`,
		);
	});
});

describe.skipIf(!hasTmux())("-e in the screen (tmux)", () => {
	const terminal = new TmuxTerminal("loom-extension-flag");
	afterAll(() => terminal.kill());

	it("does not open the screen without an extension it names: it says why and exits 2", async () => {
		const ws = workspace();
		mkdirSync(join(ws.home, "user-home"));
		terminal.start(loomCommand(ws.home, ["-e", "missing.ts", ...serverFlags(server.openaiBaseUrl)]), { cwd: ws.cwd, columns: 120, rows: 20 });
		await terminal.waitForScreen((screen) => screen.includes("[loom exited with"), "loom's exit");
		const text = terminal.history();
		expect(text).toContain(`loom: --extension: ${join(ws.cwd, "missing.ts")} was not loaded: No extension at ${join(ws.cwd, "missing.ts")}.`);
		expect(text).toContain("[loom exited with 2]");
		expect(text).not.toContain("ready");
	});
});

describe("extension folders", () => {
	it("a cloned project's prompt template does not turn off the user's guard: the user's command runs, the template is hidden", async () => {
		const ws = workspace();
		mkdirSync(join(ws.home, "extensions"));
		writeFileSync(
			join(ws.home, "extensions", "guard.ts"),
			GUARD.replace("export default function (loom: ExtensionAPI) {", 'export default function (loom: ExtensionAPI) {\n\tloom.registerCommand("review", { description: "guard status", handler: () => {} });'),
		);
		mkdirSync(join(ws.cwd, ".loom", "prompts"), { recursive: true });
		writeFileSync(join(ws.cwd, ".loom", "prompts", "review.md"), "Review everything.\n");
		rmRfTurns(ws);
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "clean up"], ws);
		expect(result.code).toBe(0);
		expect(existsSync(join(ws.cwd, "data"))).toBe(true);
		expect(toolResult()).toContain("blocked by the team guard");
		expect(result.stderr).toBe(
			`loom: warning: /review from ${join(ws.cwd, ".loom", "prompts", "review.md")} is hidden by the command of that name from the extension ${join(ws.home, "extensions", "guard.ts")}; rename it to use it.\nloom: guard was on duty\n`,
		);
	});

	it("loads loom home's extensions without asking", async () => {
		const ws = workspace();
		mkdirSync(join(ws.home, "extensions"));
		writeFileSync(join(ws.home, "extensions", "guard.ts"), GUARD);
		rmRfTurns(ws);
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "clean up"], ws);
		expect(existsSync(join(ws.cwd, "data"))).toBe(true);
		expect(toolResult()).toContain("blocked by the team guard");
		expect(result.stderr).toBe("loom: guard was on duty\n");
	});

	// stdout is the answer (text), the events (JSON) or the protocol (RPC): an extension's console output must not mix in.
	it("sends what an extension prints with console.log, info or debug to stderr, in text, JSON and RPC mode", async () => {
		const ws = workspace();
		mkdirSync(join(ws.home, "extensions"));
		writeFileSync(
			join(ws.home, "extensions", "chatty.ts"),
			'console.log("loaded");\nexport default function (loom) {\n\tconsole.info("factory");\n\tloom.on("run_end", () => console.debug("run over"));\n}\n',
		);
		server.enqueue({ text: "All done." }, { text: "All done." }, { text: "All done." });
		const text = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(text.stdout).toBe("All done.\n");
		expect(text.stderr).toBe("loaded\nfactory\nrun over\n");
		const json = await runLoom(["--mode", "json", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(json.code).toBe(0);
		expect(() => jsonLines(json.stdout)).not.toThrow();
		expect(json.stderr).toBe("loaded\nfactory\nrun over\n");
		const rpc = startLoom(["--mode", "rpc", ...serverFlags(server.openaiBaseUrl)], { ...ws, openStdin: true });
		rpc.child.stdin!.write(`${JSON.stringify({ type: "prompt", message: "hi" })}\n`);
		await rpc.waitForStdout('"type":"run_end"');
		rpc.child.stdin!.end();
		const served = await rpc.done;
		expect(() => jsonLines(served.stdout)).not.toThrow();
		expect(served.stderr).toContain("loaded\nfactory\n");
	});

	// A guard linked from a dotfiles repository that is not checked out must not go missing without a word.
	it("reports an extension that is a link leading nowhere or a FIFO, by path and why, and loads the others", async () => {
		const ws = workspace();
		const folder = join(ws.home, "extensions");
		mkdirSync(folder);
		symlinkSync(join(ws.home, "dotfiles", "guard.ts"), join(folder, "1-linked.ts"));
		execFileSync("mkfifo", [join(folder, "2-pipe.ts")]);
		writeFileSync(join(folder, "3-guard.ts"), GUARD);
		rmRfTurns(ws);
		const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "clean up"], ws);
		expect(result.code).toBe(0);
		expect(toolResult()).toContain("blocked by the team guard");
		const lines = result.stderr.split("\n");
		expect(lines).toHaveLength(4);
		expect(lines[0]).toMatch(new RegExp(`^loom: error: Extension ${escape(join(folder, "1-linked.ts"))} was not loaded: .*no such file`));
		expect(lines[1]).toMatch(new RegExp(`^loom: error: Extension ${escape(join(folder, "2-pipe.ts"))} was not loaded: .*not a regular file`));
		expect(lines.slice(2)).toEqual(["loom: guard was on duty", ""]);
	});

	// Nothing but the stuck extension keeps the process alive: loom must not end quietly (exit 0, no answer). The
	// stuck factory comes first: the import after it is waited on meanwhile, so the run waits one timeout, not two.
	// The settings' timeout (5 s, not the default 10 s) still leaves the guard ample time to load on a slow machine.
	it("gives up on an extension whose loading never finishes (in its factory or at import), says which, and answers", async () => {
		const ws = workspace();
		writeFileSync(join(ws.home, "settings.json"), JSON.stringify({ extensions: { loadTimeoutMs: 5000 } }));
		const folder = join(ws.home, "extensions");
		mkdirSync(folder);
		writeFileSync(join(folder, "1-stuck-factory.ts"), "export default async function () {\n\tawait new Promise(() => {});\n}\n");
		writeFileSync(join(folder, "2-stuck-import.mjs"), "await new Promise(() => {});\nexport default function () {}\n");
		writeFileSync(join(folder, "3-guard.ts"), GUARD);
		rmRfTurns(ws);
		const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "clean up"], ws);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("All done.\n");
		expect(toolResult()).toContain("blocked by the team guard");
		expect(result.stderr.split("\n")).toEqual([
			`loom: error: Extension ${join(folder, "1-stuck-factory.ts")} was not loaded: it did not finish loading within 5 s.`,
			`loom: error: Extension ${join(folder, "2-stuck-import.mjs")} was not loaded: it did not finish loading within 5 s.`,
			"loom: guard was on duty",
			"",
		]);
	});

	it("print mode skips an untrusted project's extensions and says so on stderr; --trust, the setting or a remembered yes load them", async () => {
		const ws = workspace();
		mkdirSync(join(ws.cwd, ".loom", "extensions"), { recursive: true });
		writeFileSync(join(ws.cwd, ".loom", "extensions", "guard.ts"), GUARD);

		rmRfTurns(ws);
		const skipped = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "clean up"], ws);
		expect(skipped.code).toBe(0);
		expect(existsSync(join(ws.cwd, "data"))).toBe(false);
		expect(skipped.stderr).toBe(
			"loom: skipped the project's own code (.loom/extensions/guard.ts): this folder is not trusted yet: pass --trust " +
				'(or set "trustProjects": true in settings.json), or run loom here without -p to be asked.\n',
		);

		const runs: [string, string[]][] = [
			["--trust", ["--trust"]],
			["settings", []],
			["remembered", []],
		];
		for (const [how, flags] of runs) {
			server.reset();
			if (how === "settings") writeFileSync(join(ws.home, "settings.json"), JSON.stringify({ trustProjects: true }));
			if (how === "remembered") {
				writeFileSync(join(ws.home, "settings.json"), "{}");
				setProjectTrust(ws.home, ws.cwd, true);
			}
			rmRfTurns(ws);
			const trusted = await runLoomInProcess(["-p", ...flags, ...serverFlags(server.openaiBaseUrl), "clean up"], ws);
			expect({ how, data: existsSync(join(ws.cwd, "data")), stderr: trusted.stderr }).toEqual({ how, data: true, stderr: "loom: guard was on duty\n" });
		}
	});

	it("print mode names a project the user refused, and how to run its code anyway", async () => {
		const ws = workspace();
		mkdirSync(join(ws.cwd, ".loom", "extensions"), { recursive: true });
		writeFileSync(join(ws.cwd, ".loom", "extensions", "guard.ts"), GUARD);
		setProjectTrust(ws.home, ws.cwd, false);
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.stderr).toBe(
			"loom: skipped the project's own code (.loom/extensions/guard.ts): you chose not to trust this folder; pass --trust to run it this time.\n",
		);
	});
});

describe("an extension that breaks mid-run", () => {
	const HANGS = `export default function (loom) {
	loom.on("tool_call", () => new Promise(() => {}));
}
`;
	const THROWS_WHILE_PENDING = `export default function (loom) {
	loom.on("tool_call", () => new Promise(() => setTimeout(() => { throw new Error("boom in a timer"); }, 5)));
}
`;
	const THROWS_AFTER_RETURNING = `export default function (loom) {
	loom.on("tool_result", () => { setTimeout(() => { throw new Error("boom in a timer"); }, 0); });
}
`;
	const lsThenAnswer = () => server.enqueue({ toolCalls: [{ id: "ls", name: "bash", arguments: { command: "ls" } }] }, { text: "never asked" });
	/** The session file's tool result for the call. */
	const savedResult = (home: string) =>
		readFileSync(sessionFiles(home)[0]!, "utf8")
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line))
			.find((entry) => entry.message?.role === "toolResult")?.message;

	it("ends the run as an error naming the extension when its tool_call handler never settles; the call gets an error result", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "hangs.js"), HANGS);
		const path = join(ws.cwd, "hangs.js");
		lsThenAnswer();
		const text = await runLoom(["-p", "-e", "hangs.js", ...serverFlags(server.openaiBaseUrl), "list"], ws);
		expect(text.code).toBe(1);
		expect(text.stdout).toBe("");
		expect(text.stderr).toBe(`loom: Extension ${path}: its tool_call handler never settled: it waits on nothing that can happen.\n`);
		expect(server.requests).toHaveLength(1);
		expect(savedResult(ws.home)).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining(`"${path}" failed: its tool_call handler never settled`) }] });

		server.reset();
		lsThenAnswer();
		const json = await runLoom(["-p", "--mode", "json", "-e", "hangs.js", ...serverFlags(server.openaiBaseUrl), "list"], ws);
		expect(json.code).toBe(1);
		const lines = jsonLines(json.stdout);
		expect(lines.find((line) => line.type === "tool_execution_end")).toMatchObject({ isError: true });
		expect(lines.at(-1)).toEqual({ type: "run_end", status: "error", errorMessage: `Extension ${path}: its tool_call handler never settled: it waits on nothing that can happen.` });
	});

	it("ends the run as an error naming the extension when a timer of its handler throws, without a stack or source line", async () => {
		const ws = workspace();
		const pending = join(ws.cwd, "pending.js");
		writeFileSync(pending, THROWS_WHILE_PENDING);
		lsThenAnswer();
		const whilePending = await runLoom(["-p", "-e", "pending.js", ...serverFlags(server.openaiBaseUrl), "list"], ws);
		expect(whilePending.code).toBe(1);
		expect(whilePending.stderr).toBe(`loom: Extension ${pending} threw outside its handlers (in a timer or callback): boom in a timer\n`);
		expect(server.requests).toHaveLength(1);
		expect(savedResult(ws.home)).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining("boom in a timer") }] });

		server.reset();
		const later = join(ws.cwd, "later.js");
		writeFileSync(later, THROWS_AFTER_RETURNING);
		lsThenAnswer();
		const afterReturning = await runLoom(["-p", "-e", "later.js", ...serverFlags(server.openaiBaseUrl), "list"], ws);
		expect(afterReturning.code).toBe(1);
		// The run stops where the timer found it (its next request may have gone out already).
		expect(afterReturning.stderr).toBe(`loom: Extension ${later} threw outside its handlers (in a timer or callback): boom in a timer\n`);
	});

	it("ends the run as an error naming the extension when its tool's execute() never settles", async () => {
		const ws = workspace();
		const path = join(ws.cwd, "stuck-tool.js");
		writeFileSync(
			path,
			`export default function (loom) {
	loom.registerTool({ name: "stuck", description: "Never answers.", parameters: { type: "object" }, execute: () => new Promise(() => {}) });
}
`,
		);
		server.enqueue({ toolCalls: [{ id: "s1", name: "stuck", arguments: {} }] }, { text: "never asked" });
		const result = await runLoom(["-p", "-e", "stuck-tool.js", ...serverFlags(server.openaiBaseUrl), "go"], ws);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe(`loom: Extension ${path}: its tool "stuck" never settled: it waits on nothing that can happen.\n`);
		expect(savedResult(ws.home)).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining('its tool "stuck" never settled') }] });
	});
});
