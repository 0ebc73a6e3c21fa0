// The command line as parsed, without running anything.
import { describe, expect, it } from "vitest";
import { parseArgs } from "../../src/cli/args.js";
import { chooseModel } from "../../src/sdk/model-option.js";
import { UsageError } from "../../src/cli/run-io.js";
import { createBuiltinTools } from "../../src/tools/index.js";

function parse(...argv: string[]) {
	let out = "";
	let err = "";
	const result = parseArgs(argv, "9.9.9", { out: (t) => (out += t), err: (t) => (err += t) });
	return { result, out, err, options: result.kind === "run" ? result.options : undefined };
}

describe("parseArgs", () => {
	it("maps every flag", () => {
		const { options } = parse(
			"-p", "--mode", "json", "--provider", "openai", "-m", "gpt-x", "--base-url", "http://h/v1", "--api-key", "k",
			"--thinking", "high", "--toolExecution", "sequential", "--tools", "read,bash", "--system-prompt", "S",
			"--append-system-prompt", "A", "--no-context-files", "--max-turns", "3", "--approval", "ask", "--sandbox", "read-only",
			"--allow", "bash(npm test)", "--allow", "edit(src/**)", "--deny", "bash(git push*)", "-e", "guard.ts", "--extension", "tools/",
			"--trust", "--mcp-config", "a.json", "--mcp-config", '{"mcpServers":{}}', "@a.ts", "fix", "@b.png", "it",
		);
		expect(options).toEqual({
			print: true, mode: "json", provider: "openai", model: "gpt-x", baseUrl: "http://h/v1", apiKey: "k",
			thinking: "high", toolExecution: "sequential", tools: ["read", "bash"], systemPrompt: "S", appendSystemPrompt: "A",
			continue: false, resume: false, session: undefined, persist: true, contextFiles: false, maxTurns: 3,
			approval: "ask", allow: ["bash(npm test)", "edit(src/**)"], deny: ["bash(git push*)"], sandbox: "read-only",
			extensions: ["guard.ts", "tools/"], trust: true, mcpConfig: ["a.json", '{"mcpServers":{}}'], files: ["a.ts", "b.png"], prompt: "fix it",
			ephemeral: false, checkpoints: true,
		});
	});

	it("reads --output-schema, --ephemeral (no session file) and --no-checkpoints", () => {
		expect(parse("-p", "--output-schema", "s.json", "--ephemeral", "--no-checkpoints", "go").options).toMatchObject({ outputSchema: "s.json", ephemeral: true, persist: false, checkpoints: false, prompt: "go" });
	});

	it("reads `loom batch` and `loom worker` with their own options and the model flags around them", () => {
		expect(parse("batch", "tasks.jsonl", "-j", "3", "--results", "r.jsonl", "-m", "m").options).toMatchObject({
			command: "batch",
			batch: { tasks: "tasks.jsonl", jobs: 3, results: "r.jsonl", collect: false },
			model: "m",
			prompt: "",
		});
		expect(parse("batch", "t.jsonl").options?.batch).toMatchObject({ jobs: 4, queue: undefined });
		expect(parse("worker", "--queue", "redis://h:6379/0", "--lock-ms", "500").options).toMatchObject({ command: "worker", worker: { queue: "redis://h:6379/0", jobs: 1, lockMs: 500 } });
		expect(() => parse("batch", "t.jsonl", "--collect")).toThrow("--collect collects from a queue");
	});

	it("reads `loom acp` with the model and tool options, and keeps a prompt that only mentions acp", () => {
		expect(parse("acp", "--model", "m", "--tools", "read").options).toMatchObject({ command: "acp", model: "m", tools: ["read"], prompt: "" });
		expect(parse("--no-session", "acp").options).toMatchObject({ command: "acp", persist: false });
		expect(parse("explain", "acp").options).toMatchObject({ command: undefined, prompt: "explain acp" });
		// `loom help` is a prompt, as before there were subcommands.
		expect(parse("help").options).toMatchObject({ command: undefined, prompt: "help" });
	});

	it("refuses prompts and session picks with `loom acp`: the editor sends them", () => {
		expect(() => parse("acp", "-p")).toThrow(/loom acp takes no -p/);
		expect(() => parse("acp", "-c")).toThrow(/loom acp takes no --continue/);
		expect(parse("acp", "do", "this").result).toEqual({ kind: "exit", code: 2 });
	});

	it("has sensible defaults", () => {
		const { options } = parse();
		expect(options).toMatchObject({ print: false, tools: undefined, persist: true, contextFiles: true, extensions: [], trust: false, mcpConfig: [], files: [], prompt: "" });
		expect(options).toMatchObject({ approval: undefined, allow: [], deny: [] });
	});

	it("reads --no-tools, --no-session and --session", () => {
		expect(parse("--no-tools").options!.tools).toEqual([]);
		expect(parse("--no-session").options!.persist).toBe(false);
		expect(parse("--session", "abc").options).toMatchObject({ session: "abc", persist: true });
	});

	it("prints version and help and asks for exit 0", () => {
		const version = parse("-v");
		expect(version.result).toEqual({ kind: "exit", code: 0 });
		expect(version.out).toBe("9.9.9\n");
		const help = parse("--help");
		expect(help.result).toEqual({ kind: "exit", code: 0 });
		expect(help.out).toContain("Usage: loom [options] [@file...] [prompt...]");
		for (const flag of ["--print", "--mode", "--toolExecution", "--no-session", "--max-turns", "--resume"]) expect(help.out).toContain(flag);
	});

	it("help names the key variables, LOOM_HOME and the exit codes a script needs", () => {
		const help = parse("--help").out;
		for (const name of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "LOOM_HOME"]) expect(help).toContain(name);
		expect(help).toMatch(/Exit codes:.*0.*1.*2.*129.*130/s);
	});

	it("asks for exit 2 on unknown flags and bad values, with the reason on stderr", () => {
		expect(parse("--nope").result).toEqual({ kind: "exit", code: 2 });
		expect(parse("--approval", "sometimes").result).toEqual({ kind: "exit", code: 2 });
		expect(parse("--sandbox", "sometimes").result).toEqual({ kind: "exit", code: 2 });
		const mode = parse("--mode", "xml");
		expect(mode.result).toEqual({ kind: "exit", code: 2 });
		expect(mode.err).toMatch(/Allowed choices are text, json/);
		expect(parse("--max-turns", "two").err).toMatch(/whole number/);
	});

	it("words commander's refusals as loom's other usage errors: \"loom: <reason>\", then where usage is", () => {
		expect(parse("--bogus").err).toBe("loom: unknown option '--bogus'\n(run loom --help for usage)\n");
		expect(parse("--promt", "x").err).toBe("loom: unknown option '--promt' (did you mean --print?)\n(run loom --help for usage)\n");
		expect(parse("--thinking", "lots").err).toBe(
			"loom: option '--thinking <level>' argument 'lots' is invalid. Allowed choices are off, low, medium, high.\n(run loom --help for usage)\n",
		);
		expect(parse("--mode").err).toBe("loom: option '--mode <mode>' argument missing\n(run loom --help for usage)\n");
	});

	it("passes any tool names on, trimmed and once each: the session's assembly knows which tools exist", () => {
		expect(parse("--tools", " read, teleport,read,").options!.tools).toEqual(["read", "teleport"]);
	});

	it("help names the default tools and the others, as the list of built-in tools has them", () => {
		const { known, defaults } = createBuiltinTools("/");
		const names = (tools: { name: string }[]) => tools.map((tool) => tool.name);
		const others = names(known).filter((name) => !names(defaults).includes(name));
		expect(parse("--help").out.replace(/\s+/g, " ")).toContain(`(default: ${names(defaults).join(",")}; also ${others.join(",")})`);
	});

	it("refuses combinations that contradict each other", () => {
		expect(() => parse("-c", "-r")).toThrow(UsageError);
		expect(() => parse("-c", "--session", "x")).toThrow(/cannot be combined/);
		expect(() => parse("-c", "--no-session")).toThrow(/--no-session cannot be combined with --continue/);
		expect(() => parse("--fork", "abc", "-c")).toThrow(/--continue and --fork cannot be combined/);
		expect(() => parse("--fork", "abc", "--session", "x")).toThrow(/--session and --fork cannot be combined/);
		expect(() => parse("--fork", "abc", "--no-session")).toThrow(/--no-session cannot be combined with --fork/);
	});

	it("reads --mode rpc, whose prompts come on stdin: prompt arguments and -r's question are refused", () => {
		expect(parse("--mode", "rpc", "-c").options).toMatchObject({ mode: "rpc", continue: true, prompt: "" });
		expect(() => parse("--mode", "rpc", "hello")).toThrow(/--mode rpc takes its prompts on stdin/);
		expect(() => parse("--mode", "rpc", "@a.ts")).toThrow(/--mode rpc takes its prompts on stdin/);
		expect(() => parse("--mode", "rpc", "-r")).toThrow("--mode rpc cannot ask which session to resume: use --session <path|id>, -c, or switch_session.");
	});

	it("refuses an empty --session or --fork as a usage error, not a new session", () => {
		expect(() => parse("--session", "")).toThrow(/--session needs a session file path or an id prefix/);
		expect(() => parse("--session", "  ")).toThrow(UsageError);
		expect(() => parse("--fork", "")).toThrow(/--fork needs a session file path or an id prefix/);
	});

	it("reads --fork <session> as the session to copy into a new one", () => {
		expect(parse("--fork", "3f2a", "-p", "go on").options).toMatchObject({ fork: { session: "3f2a" }, session: undefined, persist: true });
		expect(parse("--fork", "/tmp/a b/s.jsonl").options!.fork).toEqual({ session: "/tmp/a b/s.jsonl" });
	});

	it("reads --fork <session>:<entry> with the entry as the export page shows it, with or without its #", () => {
		expect(parse("--fork", "3f2a:9c41e0d2").options!.fork).toEqual({ session: "3f2a", entry: "9c41e0d2" });
		expect(parse("--fork", "3f2a:#9c41e0d2").options!.fork).toEqual({ session: "3f2a", entry: "9c41e0d2" });
		expect(parse("--fork", "/tmp/s.jsonl:#9c41e0d2").options!.fork).toEqual({ session: "/tmp/s.jsonl", entry: "9c41e0d2" });
		// A path may hold a colon; only an entry id after it is taken apart.
		expect(parse("--fork", "/tmp/a:b/s.jsonl").options!.fork).toEqual({ session: "/tmp/a:b/s.jsonl" });
	});

	it("refuses a --fork <id>:<entry> whose entry is no entry id, naming the entry rather than a session that is not there", () => {
		expect(() => parse("--fork", "3f2a:zzzz")).toThrow(UsageError);
		expect(() => parse("--fork", "3f2a:zzzz")).toThrow(
			'--fork 3f2a:zzzz: "zzzz" is not an entry id. An entry id is 8 hex characters, as an exported page shows beside each message (--fork 3f2a:1a2b3c4d).',
		);
		expect(() => parse("--fork", "3f2a:")).toThrow(/"" is not an entry id/);
	});
});

describe("chooseModel", () => {
	const none = { provider: undefined, model: undefined, baseUrl: undefined, apiKey: undefined };

	it("prefers flags, then the resumed session's model, then settings", () => {
		const settings = { provider: "anthropic", model: "claude-a" };
		const previous = { provider: "openai", modelId: "gpt-b" };
		expect(chooseModel({ ...none, model: "x" }, settings, previous)).toMatchObject({ provider: undefined, modelId: "x" });
		expect(chooseModel(none, settings, previous)).toMatchObject({ provider: "openai", modelId: "gpt-b" });
		expect(chooseModel(none, settings)).toMatchObject({ provider: "anthropic", modelId: "claude-a" });
	});

	it("keeps the settings model only for the settings provider", () => {
		const settings = { provider: "anthropic", model: "claude-a" };
		expect(chooseModel({ ...none, provider: "anthropic" }, settings).modelId).toBe("claude-a");
		expect(chooseModel({ ...none, provider: "openai" }, settings).modelId).toBeUndefined();
	});

	it("passes endpoint and key overrides along", () => {
		expect(chooseModel({ ...none, baseUrl: "http://x", apiKey: "k" }, {})).toEqual({
			provider: undefined,
			modelId: undefined,
			baseUrl: "http://x",
			apiKey: "k",
		});
	});
});
