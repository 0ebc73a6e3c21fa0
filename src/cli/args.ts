// The command line (commander): parses argv into options; nothing here touches the model, the disk or the screen.
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import {
	THINKING_LEVELS,
	type ThinkingLevel,
	BUILTIN_PROVIDERS,
	APPROVAL_MODE_TEXT,
	APPROVAL_MODES,
	type ApprovalMode,
	SANDBOX_MODES,
	type SandboxMode,
} from "../core/index.js";
import { BUILTIN_TOOL_NAMES } from "../tools/index.js";
import { API_KEY_ENV, API_KEY_FLAG, UsageError } from "./run-io.js";


export interface CliOptions {
	/**
	 * `loom acp`: serve the Agent Client Protocol on stdin/stdout instead of prompting. `loom hooks`: list or test the
	 * settings hooks. `loom batch`: run the tasks of a JSON Lines file (see `batch`); `loom worker`: take tasks from a
	 * queue (see `worker`).
	 */
	command?: "acp" | "hooks" | "batch" | "worker" | "login" | "logout" | "mcp";
	/** `loom hooks [test <event>]`: the words after `hooks`. */
	hooksArgs?: string[];
	/** `loom login [provider] [--device]`, `loom logout [provider]`, `loom mcp login|logout <server>`. */
	login?: LoginCommandOptions;
	/** `loom batch <tasks.jsonl>`'s own options. */
	batch?: BatchCommandOptions;
	/** `loom worker`'s own options. */
	worker?: WorkerCommandOptions;
	/** --output-schema: a JSON Schema file the final answer must be valid against. */
	outputSchema?: string;
	/** --ephemeral: nothing written under loom's home or the project (implies no session file). */
	ephemeral: boolean;
	/** false with --no-checkpoints. */
	checkpoints: boolean;
	print: boolean;
	/** text / json: print mode's output; rpc: commands on stdin, events and responses on stdout. */
	mode?: "text" | "json" | "rpc";
	provider?: string;
	model?: string;
	baseUrl?: string;
	apiKey?: string;
	thinking?: ThinkingLevel;
	toolExecution?: "parallel" | "sequential";
	/** Undefined: the default tools. Names are checked where the session is assembled, which knows every tool. */
	tools?: string[];
	/** --worktree [name]: the session works in a new worktree on the branch loom/<name> ("": a generated name). */
	worktree?: string;
	/** --agent: the agent definition the session starts as. */
	agent?: string;
	systemPrompt?: string;
	appendSystemPrompt?: string;
	continue: boolean;
	resume: boolean;
	/** A path or an id prefix. */
	session?: string;
	/** --fork: the session whose conversation a new session starts from. */
	fork?: ForkTarget;
	/** false with --no-session. */
	persist: boolean;
	contextFiles: boolean;
	/** -e paths, in order. */
	extensions: string[];
	/** Run the project's own code (.loom/extensions, .mcp.json servers) without asking. */
	trust: boolean;
	/** `--mcp-config` values, in order: MCP server configuration files (or JSON text), each adding servers. */
	mcpConfig: string[];
	maxTurns?: number;
	/** --list-models: "" lists every known model, other text only those matching it. */
	listModels?: string;
	/** Approval mode and rules; checked where the session is assembled. */
	approval?: ApprovalMode;
	allow: string[];
	deny: string[];
	/** The kernel sandbox of commands and stdio MCP servers; undefined: settings', else the default. */
	sandbox?: SandboxMode;
	/** --prune-checkpoints [days]: remove unusable and old checkpoints, then exit. */
	pruneCheckpoints?: { days: number };
	/** --export <session> [file]: write a session's conversation as an HTML page, then exit. */
	exportSession?: { session: string; file?: string };
	/** `@path` arguments, in order. */
	files: string[];
	/** The other arguments, joined by spaces. */
	prompt: string;
}

export interface BatchCommandOptions {
	tasks: string;
	/** Tasks run at once on this machine (default 4). */
	jobs: number;
	/** Where results are appended (default: results.jsonl beside the tasks file). */
	results?: string;
	/** redis://…: enqueue the tasks on this BullMQ queue instead of running them here. */
	queue?: string;
	/** With a queue: only collect the results of tasks enqueued earlier. */
	collect: boolean;
}

export interface WorkerCommandOptions {
	queue: string;
	jobs: number;
	/** How long a task's lock lasts without renewal before BullMQ counts its worker as gone (default 30 s). */
	lockMs?: number;
}

/** What `--fork` names: a session (path or id prefix), and optionally the entry its conversation is copied up to. */
export interface ForkTarget {
	session: string;
	/** An entry id (the export page shows them); the new session holds the conversation up to and including it. */
	entry?: string;
}

export interface LoginCommandOptions {
	/** The provider (login, logout) or MCP server (mcp), when named. */
	target?: string;
	/** `loom mcp <verb>`'s verb. */
	verb?: string;
	/** --device: sign in with a code typed on another device (no browser here). */
	device: boolean;
}

/** What parsing decided: run, or it already printed help/version (exit 0). */
export type ParseResult = { kind: "run"; options: CliOptions } | { kind: "exit"; code: number };

const BUILTINS = Object.values(BUILTIN_PROVIDERS);

interface Commands {
	acp(): void;
	hooks(words: string[]): void;
	batch(tasks: string, options: Record<string, unknown>): void;
	worker(options: Record<string, unknown>): void;
	login(command: "login" | "logout" | "mcp", options: LoginCommandOptions): void;
}

function buildProgram(version: string, output: ParseOutput, commands: Commands): Command {
	const program = new Command("loom")
		.description("A terminal coding agent. Without -p, opens the interactive screen.")
		.usage("[options] [@file...] [prompt...]")
		.argument("[prompt...]", "the prompt (words are joined by spaces); @path inlines a file, text or image")
		.option("-p, --print", "run the prompt(s) without the interactive screen, print the answer, exit")
		.addOption(
			new Option("--mode <mode>", "print-mode output: text (default) or json (one event per line); rpc: serve JSON commands on stdin").choices([
				"text",
				"json",
				"rpc",
			]),
		)
		.option("--provider <name>", `${BUILTINS.map((p) => p.name).join(", ")}, or a provider from models.json`)
		.option("-m, --model <id>", 'model id; "provider/id" also accepted')
		.option("--list-models [search]", "list the models loom knows (or those matching search) and whether their key is set, then exit")
		.option("--base-url <url>", "override the provider endpoint")
		.addOption(new Option(`${API_KEY_FLAG} <key>`, "API key (default: environment or models.json)").env(API_KEY_ENV))
		.addOption(new Option("--thinking <level>", "thinking level").choices(THINKING_LEVELS))
		.addOption(
			new Option("--toolExecution <mode>", "parallel (default) | sequential: run every tool call one at a time").choices([
				"parallel",
				"sequential",
			]),
		)
		.option("--tools <list>", `comma-separated tools to enable (${builtinToolsText()})`, parseToolList)
		.option("--no-tools", "no tools at all")
		.option("--worktree [name]", "work in a new git worktree on the branch loom/<name>, under $LOOM_HOME/worktrees; your tree stays as it is (/merge brings the branch in)")
		.option("--agent <name>", "start as this agent (a definition in .loom/agents, .claude/agents, ~/.loom/agents or ~/.claude/agents)")
		.option("--system-prompt <text>", "replace the default system prompt")
		.option("--append-system-prompt <text>", "add text to the system prompt")
		.option("-c, --continue", "continue the most recent session of this directory")
		.option("-r, --resume", "choose a session of this directory to resume")
		.option("--session <path|id>", "open a given session file, or id prefix")
		.option("--fork <path|id[:entry]>", "continue a copy of a session (file or id prefix), up to an entry if given, in a new session; the original is untouched")
		.option("--no-session", "keep no session file")
		.option("--ephemeral", "write nothing under loom's home or the project: no session file, checkpoints, prompt history or remembered warnings")
		.option("--no-checkpoints", "take no checkpoints of the files (/rewind then restores none); loom batch's tasks take none")
		.option("--output-schema <file>", "the final answer must be JSON valid against this JSON Schema; stdout carries exactly that JSON (exit 3 if it is not, after asking once more)")
		.option("--no-context-files", "skip AGENTS.md / CLAUDE.md")
		.option("-e, --extension <path>", "load an extension (a .ts or .js module, or a folder with an index); repeatable", collect, [])
		.option("--trust", "run this project's own code (.loom/extensions, .mcp.json servers, hooks) without asking")
		.option("--mcp-config <file>", "MCP servers from this file (or JSON text) too, besides .mcp.json and $LOOM_HOME/mcp.json; repeatable", collect, [])
		.option("--max-turns <n>", "stop after n model turns", parsePositiveInt)
		.addOption(new Option("--approval <mode>", approvalHelp()).choices(APPROVAL_MODES))
		.option("--allow <rule>", 'allow calls without asking, e.g. "bash(npm test)", "edit(src/**)" (repeatable)', collect, [])
		.option("--deny <rule>", 'never allow such calls, e.g. "bash(git push*)", "write(.env)" (repeatable)', collect, [])
		.addOption(new Option("--sandbox <mode>", sandboxHelp()).choices(SANDBOX_MODES))
		.option("--export <path|id>", "write a session's conversation as an HTML page (to the file given after it, or loom-session-<id>.html) and exit")
		.option("--prune-checkpoints [days]", `remove checkpoints of deleted sessions and those older than days (default ${DEFAULT_PRUNE_DAYS}), then exit`, parseDays)
		.version(version, "-v, --version", "print the version")
		.helpOption("-h, --help", "show this help")
		.showHelpAfterError("(run loom --help for usage)")
		.configureOutput({ writeOut: output.out, writeErr: output.err, outputError: (text, write) => write(usageLine(text)) })
		.exitOverride()
		// The prompt is the default action; `loom help` stays a prompt too.
		.helpCommand(false)
		.action(() => {});
	program
		.command("acp")
		.description("serve the Agent Client Protocol on stdin/stdout, for editors such as Zed (model and tool options apply)")
		.action(commands.acp);
	program
		.command("hooks [words...]")
		.description("list the settings hooks in force here, with their files; `loom hooks test <event> --session <id>` replays a session's events through them")
		.action((words: string[] | undefined) => commands.hooks(words ?? []));
	program
		.command("batch")
		.description("run each task of a JSON Lines file (prompt, and optionally id, cwd or repo, model, outputSchema) in its own worktree; results to results.jsonl")
		.argument("<tasks>", "the tasks file (.jsonl)")
		.option("-j, --jobs <n>", "tasks run at once (default 4)", parsePositiveInt)
		.option("--results <file>", "where results are appended (default: results.jsonl beside the tasks)")
		.option("--queue <redis-url>", "enqueue the tasks on a BullMQ queue in Redis for `loom worker`s, and collect their results")
		.option("--collect", "with --queue: enqueue nothing, collect the results of tasks enqueued before")
		.action((tasks: string, options: Record<string, unknown>) => commands.batch(tasks, options));
	program
		.command("worker")
		.description("take tasks from a BullMQ queue (loom batch --queue) and run them, --jobs at once")
		.requiredOption("--queue <redis-url>", "the queue's Redis, e.g. redis://host:6379/0")
		.option("-j, --jobs <n>", "tasks run at once (default 1)", parsePositiveInt)
		.option("--lock-ms <ms>", "how long a silent worker keeps its task before another takes it (default 30000)", parsePositiveInt)
		.action((options: Record<string, unknown>) => commands.worker(options));
	program
		.command("login [provider]")
		.description("sign in to a ChatGPT or GitHub Copilot plan instead of an API key (a picker when no provider is named)")
		.option("--device", "sign in with a code typed in a browser anywhere (for SSH and hosts without a browser)")
		.action((provider: string | undefined, raw: Record<string, unknown>) => commands.login("login", { target: provider, device: raw.device === true }));
	program
		.command("logout [provider]")
		.description("remove a plan's login (every login, MCP servers' too, when no provider is named)")
		.action((provider: string | undefined) => commands.login("logout", { target: provider, device: false }));
	program
		.command("mcp <verb> <server>")
		.description("`loom mcp login <server>`: sign in to an HTTP MCP server that asks for OAuth; `loom mcp logout <server>` forgets it")
		.action((verb: string, server: string) => commands.login("mcp", { verb, target: server, device: false }));
	program.addHelpText(
		"after",
		[
			"",
			"Examples:",
			"  loom                                   interactive session in this directory",
			'  loom -p "explain src/main.ts"          answer once and exit',
			'  git diff | loom -p "review this"       stdin is joined to the prompt',
			'  loom -p --mode json "run the tests"    one JSON event per line',
			"  loom --mode rpc                        a program drives loom: JSON commands in, events out",
			"  loom -c                                continue the last session here",
			"  loom --list-models gemini              which Gemini models there are, and whether a key is set",
			"  loom -p --approval ask --allow 'bash(npm test)' \"fix the tests\"",
			"                                         run npm test; refuse other commands and changes",
			"  loom acp                               serve an editor speaking ACP (Zed: agent_servers, see README)",
			"  loom -p --output-schema s.json \"...\"    the answer as JSON valid against s.json",
			"  loom batch tasks.jsonl --jobs 4        each task in its own worktree, results in results.jsonl",
			"  loom login                             sign in to a ChatGPT or GitHub Copilot plan (no API key)",
			"",
			"Environment:",
			`  ${BUILTINS.filter((p) => p.apiKeyEnvs.length > 0).map((p) => p.apiKeyEnvs.join(" or ")).join(", ")}`,
			`  ${"".padEnd(39)}keys (or ${API_KEY_FLAG}; local servers: apiKey in models.json)`,
			`  ${BUILTINS.map((p) => p.baseUrlEnv).join(", ")}`,
			`  ${"".padEnd(39)}endpoints (or --base-url)`,
			"  LOOM_HOME                              where settings, models.json and sessions live (default ~/.loom)",
			"  NO_COLOR                               no colour in the screen (FORCE_COLOR wins)",
			"",
			"Settings: $LOOM_HOME/settings.json; custom providers (Ollama, vLLM, ...): $LOOM_HOME/models.json",
			"",
			"Exit codes: 0 done, 1 model error, abort or unusable provider, 2 usage error, 3 answer not valid against --output-schema,",
			"            129 hang-up (SIGHUP), 130 Ctrl+C, 141 stdout's reader went away, 143 SIGTERM",
		].join("\n"),
	);
	return program;
}

/** "auto (default): run everything guards allow; ask: changes wait for you; read-only: only reading". */
function approvalHelp(): string {
	return APPROVAL_MODES.map((mode) => `${mode}${mode === "auto" ? " (default)" : ""}: ${APPROVAL_MODE_TEXT[mode].brief}`).join("; ");
}

function sandboxHelp(): string {
	return "the kernel sandbox of commands and MCP servers: off; workspace-write (default where bubblewrap runs): write the project and temp only, no network; read-only: write nothing, no network";
}

/**
 * Commander's "error: unknown option '--x'\n(Did you mean --y?)\n" in the words of loom's other usage errors
 * (main.ts): "loom: <reason>" on one line; the pointer to --help follows.
 */
function usageLine(text: string): string {
	const [reason = "", ...more] = text.trim().replace(/^error: /, "").split("\n");
	const hints = more.map((line) => line.replace(/^\(Did you mean/, "(did you mean"));
	return `loom: ${[reason, ...hints].join(" ")}\n`;
}

export interface ParseOutput {
	out: (text: string) => void;
	err: (text: string) => void;
}

export function parseArgs(
	argv: string[],
	version: string,
	output: ParseOutput = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) },
): ParseResult {
	let command: CliOptions["command"];
	let hooksArgs: string[] | undefined;
	let login: LoginCommandOptions | undefined;
	let batch: BatchCommandOptions | undefined;
	let worker: WorkerCommandOptions | undefined;
	const program = buildProgram(version, output, {
		acp: () => (command = "acp"),
		hooks: (words) => {
			command = "hooks";
			hooksArgs = words;
		},
		batch(tasks, raw) {
			command = "batch";
			batch = { tasks, jobs: (raw.jobs as number | undefined) ?? 4, results: raw.results as string | undefined, queue: raw.queue as string | undefined, collect: raw.collect === true };
		},
		login(name, options) {
			command = name;
			login = options;
		},
		worker(raw) {
			command = "worker";
			worker = { queue: raw.queue as string, jobs: (raw.jobs as number | undefined) ?? 1, lockMs: raw.lockMs as number | undefined };
		},
	});
	try {
		program.parse(argv, { from: "user" });
	} catch (error) {
		if (error instanceof CommanderError) {
			const done = error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help";
			return { kind: "exit", code: done ? 0 : 2 };
		}
		throw error;
	}
	const raw = program.opts();
	// The subcommand's name is not a prompt word.
	const args = command === undefined ? program.args : command === "acp" ? program.args.slice(1) : [];
	const options: CliOptions = {
		command,
		...(hooksArgs ? { hooksArgs } : {}),
		...(login ? { login } : {}),
		batch,
		worker,
		outputSchema: raw.outputSchema,
		ephemeral: raw.ephemeral === true,
		checkpoints: raw.checkpoints !== false,
		print: raw.print === true,
		mode: raw.mode,
		provider: raw.provider,
		model: raw.model,
		baseUrl: raw.baseUrl,
		apiKey: raw.apiKey,
		thinking: raw.thinking,
		toolExecution: raw.toolExecution,
		tools: raw.tools === false ? [] : raw.tools,
		agent: typeof raw.agent === "string" && raw.agent.trim() !== "" ? raw.agent.trim() : undefined,
		worktree: raw.worktree === undefined ? undefined : raw.worktree === true ? "" : String(raw.worktree),
		systemPrompt: raw.systemPrompt,
		appendSystemPrompt: raw.appendSystemPrompt,
		continue: raw.continue === true,
		resume: raw.resume === true,
		session: typeof raw.session === "string" ? nonEmpty(raw.session, "--session") : undefined,
		fork: typeof raw.fork === "string" ? parseForkTarget(raw.fork) : undefined,
		persist: raw.session !== false && raw.ephemeral !== true,
		contextFiles: raw.contextFiles !== false,
		extensions: raw.extension,
		trust: raw.trust === true,
		mcpConfig: raw.mcpConfig,
		maxTurns: raw.maxTurns,
		listModels: raw.listModels === undefined ? undefined : raw.listModels === true ? "" : String(raw.listModels),
		approval: raw.approval,
		allow: raw.allow ?? [],
		deny: raw.deny ?? [],
		sandbox: raw.sandbox,
		pruneCheckpoints: raw.pruneCheckpoints === undefined ? undefined : { days: raw.pruneCheckpoints === true ? DEFAULT_PRUNE_DAYS : raw.pruneCheckpoints },
		exportSession: typeof raw.export === "string" ? exportTarget(raw.export, args) : undefined,
		files: args.filter((arg) => arg.startsWith("@") && arg.length > 1).map((arg) => arg.slice(1)),
		prompt: args.filter((arg) => !(arg.startsWith("@") && arg.length > 1)).join(" "),
	};
	checkCombinations(options);
	return { kind: "run", options };
}

function checkCombinations(options: CliOptions): void {
	const picks = [
		options.continue && "--continue",
		options.resume && "--resume",
		options.session && "--session",
		options.fork && "--fork",
	].filter(Boolean);
	if (picks.length > 1) throw new UsageError(`${picks.join(" and ")} cannot be combined: choose one way to open a session.`);
	if (!options.persist && picks.length > 0) throw new UsageError(`${options.ephemeral ? "--ephemeral" : "--no-session"} cannot be combined with ${picks[0]}.`);
	if (options.batch?.collect && !options.batch.queue) throw new UsageError("--collect collects from a queue: give --queue <redis-url> too.");
	if (options.outputSchema !== undefined && options.mode === "rpc") throw new UsageError("--output-schema is for print mode (-p), not --mode rpc.");
	if (options.mode === "rpc" && (options.prompt !== "" || options.files.length > 0)) {
		throw new UsageError('--mode rpc takes its prompts on stdin, as {"type": "prompt", "message": "..."} lines; drop the prompt arguments.');
	}
	if (options.mode === "rpc" && options.resume) throw new UsageError("--mode rpc cannot ask which session to resume: use --session <path|id>, -c, or switch_session.");
	if (options.command === "acp") {
		// The editor chooses the session (session/new, session/load) and sends the prompts.
		const flags = [
			options.print && "-p",
			options.mode && "--mode",
			options.listModels !== undefined && "--list-models",
			options.pruneCheckpoints && "--prune-checkpoints",
			options.exportSession && "--export",
			...picks,
		].filter(Boolean);
		if (flags.length > 0) throw new UsageError(`loom acp takes no ${flags.join(" or ")}: the editor opens sessions and sends prompts.`);
	}
	// These two do their job and exit: nothing else is opened or sent.
	const alone = [options.pruneCheckpoints && "--prune-checkpoints", options.exportSession && "--export"].filter(Boolean);
	if (alone.length === 0) return;
	const others = [...alone.slice(1), ...picks];
	if (others.length > 0) throw new UsageError(`${alone[0]} runs on its own: it cannot be combined with ${others.join(" or ")}.`);
	if (options.pruneCheckpoints && (options.prompt !== "" || options.files.length > 0)) throw new UsageError("--prune-checkpoints takes no prompt.");
}

/** `--export <session> [file]`: the file is the one argument after the options. */
function exportTarget(session: string, args: readonly string[]): { session: string; file?: string } {
	if (args.length > 1) throw new UsageError(`--export takes one file name after the session, not ${args.length} words (quote a name with spaces).`);
	return { session: nonEmpty(session, "--export"), file: args[0] };
}

/** Checkpoints older than this go with a bare --prune-checkpoints. */
const DEFAULT_PRUNE_DAYS = 30;

function parseDays(value: string): number {
	const n = Number(value);
	if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError("must be a number of days (0 or more).");
	return n;
}

/** A session argument must name something: an empty one would silently start a new session. */
function nonEmpty(value: string, flag: string): string {
	if (value.trim() === "") throw new UsageError(`${flag} needs a session file path or an id prefix.`);
	return value;
}

/**
 * `<session>` or `<session>:<entry>`: the part after the last colon is an entry id when it looks like one (with
 * or without the "#" an exported page shows before it). A session id has no colon, so after an id prefix
 * anything else is a mistyped entry; after a path it may be part of the path.
 */
function parseForkTarget(value: string): ForkTarget {
	const at = nonEmpty(value, "--fork").lastIndexOf(":");
	if (at <= 0) return { session: value };
	const session = value.slice(0, at);
	const entry = value.slice(at + 1);
	if (ENTRY_ID.test(entry)) return { session, entry: entry.replace(/^#/, "") };
	if (SESSION_ID_PREFIX.test(session)) {
		throw new UsageError(
			`--fork ${value}: "${entry}" is not an entry id. An entry id is 8 hex characters, as an exported page shows beside each message (--fork ${session}:1a2b3c4d).`,
		);
	}
	return { session: value };
}

const ENTRY_ID = /^#?[0-9a-f]{8}$/i;
const SESSION_ID_PREFIX = /^[0-9a-f-]+$/i;

function parseToolList(value: string): string[] {
	const names = value
		.split(",")
		.map((name) => name.trim())
		.filter((name) => name !== "");
	return [...new Set(names)];
}

function collect(value: string, previous: string[]): string[] {
	return [...previous, value];
}

function parsePositiveInt(value: string): number {
	const n = Number(value);
	if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a whole number of at least 1.");
	return n;
}

/** The built-in tools as --tools' help names them: those on by default, then the others. */
function builtinToolsText(): string {
	const names = (byDefault: boolean) => BUILTIN_TOOL_NAMES.filter((tool) => tool.byDefault === byDefault).map((tool) => tool.name).join(",");
	return `default: ${names(true)}; also ${names(false)}`;
}
