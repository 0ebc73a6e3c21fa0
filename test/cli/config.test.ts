// End to end: settings.json, models.json (a local OpenAI-compatible server, as for Ollama) and a lean startup. The
// configuration cases run in-process through the CLI's I/O seam; a session reads its keys from the process's
// environment, so the case that sets one runs the built loom, as does the startup's.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { workspace, type Workspace } from "../support/temp-dir.js";
import { runLoomInProcess } from "../support/loom-in-process.js";
import { LOOM_BIN, runLoom, serverFlags, sessionFiles, useScriptedServer } from "../support/loom-process.js";
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const server = useScriptedServer();

/** A models.json with one local provider, the way Ollama or llama.cpp are configured. */
function localProvider(ws: Workspace, apiKey = "ollama"): void {
	const models = {
		providers: {
			local: {
				baseUrl: server.openaiBaseUrl,
				api: "openai-completions",
				apiKey,
				models: [{ id: "coder:14b", contextWindow: 32768 }, { id: "small:1b" }],
			},
		},
	};
	writeFileSync(join(ws.home, "models.json"), JSON.stringify(models));
}

describe("settings and models.json", () => {
	it("uses a models.json provider chosen by --provider, with its first model by default", async () => {
		const ws = workspace();
		localProvider(ws);
		server.enqueue({ text: "local answer" });
		const result = await runLoomInProcess(["-p", "--provider", "local", "hi"], ws);
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("local answer\n");
		expect(server.requests[0]!.body.model).toBe("coder:14b");
	});

	it("takes provider, model and thinking from settings.json; flags override them", async () => {
		const ws = workspace();
		localProvider(ws);
		writeFileSync(join(ws.home, "settings.json"), JSON.stringify({ provider: "local", model: "small:1b", thinking: "low" }));
		server.enqueue({ text: "a" }, { text: "b" });
		expect((await runLoomInProcess(["-p", "hi"], ws)).code).toBe(0);
		expect((await runLoomInProcess(["-p", "-m", "local/coder:14b", "hi"], ws)).code).toBe(0);
		expect(server.requests.map((r) => r.body.model)).toEqual(["small:1b", "coder:14b"]);
		const entries = readFileSync(sessionFiles(ws.home)[0]!, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
		expect(entries.find((e) => e.type === "thinking_change")?.thinkingLevel).toBe("low");
	});

	it("names the variable a models.json key comes from when it is not set", async () => {
		const ws = workspace();
		localProvider(ws, "$LOCAL_LLM_KEY");
		const missing = await runLoom(["-p", "--provider", "local", "hi"], ws);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toMatch(/LOCAL_LLM_KEY/);
		server.enqueue({ text: "with key" });
		const present = await runLoom(["-p", "--provider", "local", "hi"], { ...ws, env: { LOCAL_LLM_KEY: "secret-value" } });
		expect(present.code).toBe(0);
		expect(present.stdout).toBe("with key\n");
	});

	it("accepts settings.json and models.json saved with a UTF-8 byte-order mark", async () => {
		const ws = workspace();
		localProvider(ws);
		const models = readFileSync(join(ws.home, "models.json"), "utf8");
		writeFileSync(join(ws.home, "models.json"), `\uFEFF${models}`);
		writeFileSync(join(ws.home, "settings.json"), `\uFEFF${JSON.stringify({ provider: "local", model: "small:1b" })}`);
		server.enqueue({ text: "read through the mark" });
		const result = await runLoomInProcess(["-p", "hi"], ws);
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		expect(server.requests[0]!.body.model).toBe("small:1b");
	});

	it("reports an invalid settings.json with its path, and exits 1", async () => {
		const ws = workspace();
		writeFileSync(join(ws.home, "settings.json"), '{"thinking": "low",}');
		const result = await runLoomInProcess(["-p", "hi"], ws);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(`Invalid JSON in ${join(ws.home, "settings.json")}`);
		writeFileSync(join(ws.home, "settings.json"), '{"toolExecution": "sideways"}');
		const invalid = await runLoomInProcess(["-p", "hi"], ws);
		expect(invalid.code).toBe(1);
		expect(invalid.stderr).toMatch(/toolExecution: must be one of parallel, sequential/);
	});

	// Copied over from Claude Code, the block would be kept as an unknown key, and its deny rules would deny nothing.
	it("refuses Claude Code's \"permissions\" block, user's or project's, saying where loom's rules go, and exits 1", async () => {
		const ws = workspace();
		const claude = JSON.stringify({ permissions: { allow: ["bash(npm test)"], deny: ["bash(git push *)"] } });
		const expected = (file: string) =>
			`loom: ${file}: "permissions" is where Claude Code keeps its rules; loom does not read it. Move its "allow" and "deny" lists to the top level: {"allow": [...], "deny": [...]}.\n`;
		writeFileSync(join(ws.home, "settings.json"), claude);
		const user = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(user.code).toBe(1);
		expect(user.stderr).toBe(expected(join(ws.home, "settings.json")));
		writeFileSync(join(ws.home, "settings.json"), "{}");
		mkdirSync(join(ws.cwd, ".loom"));
		writeFileSync(join(ws.cwd, ".loom", "settings.json"), claude);
		const project = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(project.code).toBe(1);
		expect(project.stderr).toBe(expected(join(ws.cwd, ".loom", "settings.json")));
		expect(server.requests).toHaveLength(0);
	});

	// Windows PowerShell writes UTF-16 with a byte-order mark (`Out-File`, `>`): the model must get the text, not NULs.
	it("reads AGENTS.md, CLAUDE.md and settings.json saved as UTF-16 (either byte order) or with a UTF-8 mark", async () => {
		const ws = workspace();
		const utf16be = (text: string) => Buffer.from(Buffer.from(`\uFEFF${text}`, "utf16le").swap16());
		writeFileSync(join(ws.home, "AGENTS.md"), Buffer.from("\uFEFFHome rule: answer in French. Ünïcode ✓\n", "utf16le"));
		writeFileSync(join(ws.cwd, "CLAUDE.md"), utf16be("Project rule: run npm test. 日本語\n"));
		mkdirSync(join(ws.cwd, "sub"));
		writeFileSync(join(ws.cwd, "sub", "AGENTS.md"), "\uFEFFSub rule: be brief.\n");
		writeFileSync(join(ws.home, "settings.json"), Buffer.from(`\uFEFF${JSON.stringify({ thinking: "low" })}`, "utf16le"));
		server.enqueue({ text: "ok" });
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], { ...ws, cwd: join(ws.cwd, "sub") });
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		const system = JSON.stringify(server.requests[0]!.body.messages[0]);
		expect(system).toContain("Home rule: answer in French. Ünïcode ✓");
		expect(system).toContain("Project rule: run npm test. 日本語");
		expect(system).toContain("Sub rule: be brief.");
		expect(system).not.toContain("\\u0000");
		expect(system).not.toContain("\\ufeff");
		expect(system).not.toContain("\uFEFF");
	});

	it("warns about a settings.json key loom does not know, naming the file, the key and the nearest known key, once per change", async () => {
		const ws = workspace();
		const user = join(ws.home, "settings.json");
		const project = join(ws.cwd, ".loom", "settings.json");
		writeFileSync(user, JSON.stringify({ denny: ["bash(rm *)"], retry: { maxRetrys: 2 }, futureFeature: true }));
		mkdirSync(join(ws.cwd, ".loom"));
		writeFileSync(project, JSON.stringify({ alow: ["bash(npm test)"] }));
		server.enqueue({ text: "a" }, { text: "b" }, { text: "c" });
		const first = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(first.code).toBe(0);
		expect(first.stderr.split("\n").filter(Boolean).sort()).toEqual(
			[
				`loom: warning: ${user}: unknown key "denny" (kept, but loom does not use it): did you mean "deny"?`,
				`loom: warning: ${user}: unknown key "retry.maxRetrys" (kept, but loom does not use it): did you mean "retry.maxRetries"?`,
				`loom: warning: ${user}: unknown key "futureFeature" (kept, but loom does not use it).`,
				`loom: warning: ${project}: unknown key "alow" (kept, but loom does not use it): did you mean "allow"?`,
			].sort(),
		);
		// Said once: the next run is quiet until the file changes.
		const second = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(second.stderr).toBe("");
		writeFileSync(project, JSON.stringify({ alow: ["bash(npm test)"], deny: [] }));
		const third = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(third.stderr).toBe(`loom: warning: ${project}: unknown key "alow" (kept, but loom does not use it): did you mean "allow"?\n`);
	});

	it("says LOOM_HOME names a file, not a folder, as a usage error (exit 2)", async () => {
		const ws = workspace();
		const file = join(ws.cwd, "not-a-folder");
		writeFileSync(file, "x");
		for (const home of [file, join(file, "inside")]) {
			const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], { ...ws, env: { LOOM_HOME: home } });
			expect(result.code).toBe(2);
			expect(result.stderr).not.toContain("ENOTDIR");
			expect(result.stderr).toContain(`loom: LOOM_HOME=${home} `);
			expect(result.stderr).toContain("not a folder: point it at a folder or unset it.");
		}
		expect(server.requests).toHaveLength(0);
	});

	it("reports an invalid models.json with its path, and exits 1", async () => {
		const ws = workspace();
		writeFileSync(join(ws.home, "models.json"), "{ nope");
		const result = await runLoomInProcess(["-p", "hi"], ws);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(join(ws.home, "models.json"));
	});
});

describe("startup", () => {
	it("--version and --help load only the bundle entry and its small shared chunks: no SDK, Ink, React or tools chunk", async () => {
		const ws = workspace();
		const hooks = join(ws.home, "hooks.mjs");
		const register = join(ws.home, "register.mjs");
		const trace = join(ws.home, "trace.txt");
		writeFileSync(
			hooks,
			`import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
	const result = await next(specifier, context);
	appendFileSync(${JSON.stringify(trace)}, result.url + "\\n");
	return result;
}`,
		);
		writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(`file://${hooks}`)});\n`);
		for (const flag of ["--version", "--help"]) {
			writeFileSync(trace, "");
			const { stdout } = await promisify(execFile)(process.execPath, ["--import", register, LOOM_BIN, flag], { cwd: ws.cwd });
			expect(stdout.length).toBeGreaterThan(0);
			const loaded = readFileSync(trace, "utf8");
			// The bundle's entry holds the argument parser; every heavier part is a lazy chunk or an external package.
			const files = loaded.split("\n").filter((url) => url.startsWith("file:"));
			expect(files.some((url) => url.endsWith("/dist/bundle/loom.js"))).toBe(true);
			for (const url of files) expect(url, `${flag} loaded ${url}`).not.toMatch(/\/node_modules\//);
			// With Ink and React inside the bundle, the few small modules the entry shares with the screen (the
			// bundler's helpers, the terminal sanitiser, exit codes, the provider list, the signal handling) come as
			// small chunks, each counted once however many modules import it.
			const chunks = [...new Set(files.filter((url) => url.includes("/dist/bundle/chunks/")))];
			const chunkBytes = chunks.reduce((sum, url) => sum + statSync(fileURLToPath(url)).size, 0);
			expect(chunkBytes, `${flag} loaded ${chunks.join(", ")}`).toBeLessThan(24 * 1024);
		}
	});
});
