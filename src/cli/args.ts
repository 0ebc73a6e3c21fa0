// The command line (commander): parses argv into options; nothing here touches the model, the disk or the screen.
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { THINKING_LEVELS, type ThinkingLevel } from "../core/llm-types.js";
import { BUILTIN_PROVIDERS } from "../core/llm/models-catalog.js";
import { UsageError } from "./usage-error.js";

export interface CliOptions {
	print: boolean;
	mode?: "text" | "json";
	provider?: string;
	model?: string;
	baseUrl?: string;
	apiKey?: string;
	thinking?: ThinkingLevel;
	toolExecution?: "parallel" | "sequential";
	/** Undefined: the default tools. Names are checked where the session is assembled, which knows every tool. */
	tools?: string[];
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
	maxTurns?: number;
	/** --list-models: "" lists every known model, other text only those matching it. */
	listModels?: string;
	/** `--mcp-config` values, in order: MCP server configuration files (or JSON text), each adding servers. */
	mcpConfig: string[];
	/** `@path` arguments, in order. */
	files: string[];
	/** The other arguments, joined by spaces. */
	prompt: string;
}

/** What `--fork` names: a session (path or id prefix). Parsed in one place, so a later form can name an entry too. */
export interface ForkTarget {
	session: string;
}

/** What parsing decided: run, or it already printed help/version (exit 0). */
export type ParseResult = { kind: "run"; options: CliOptions } | { kind: "exit"; code: number };

const BUILTINS = Object.values(BUILTIN_PROVIDERS);

function buildProgram(version: string, output: ParseOutput): Command {
	const program = new Command("loom")
		.description("A terminal coding agent. Without -p, opens the interactive screen.")
		.usage("[options] [@file...] [prompt...]")
		.argument("[prompt...]", "the prompt (words are joined by spaces); @path inlines a file, text or image")
		.option("-p, --print", "run the prompt(s) without the interactive screen, print the answer, exit")
		.addOption(new Option("--mode <mode>", "print-mode output: text (default) or json (one event per line)").choices(["text", "json"]))
		.option("--provider <name>", `${BUILTINS.map((p) => p.name).join(", ")}, or a provider from models.json`)
		.option("-m, --model <id>", 'model id; "provider/id" also accepted')
		.option("--list-models [search]", "list the models loom knows (or those matching search) and whether their key is set, then exit")
		.option("--base-url <url>", "override the provider endpoint")
		.option("--api-key <key>", "API key (default: environment or models.json)")
		.addOption(new Option("--thinking <level>", "thinking level").choices(THINKING_LEVELS))
		.addOption(
			new Option("--toolExecution <mode>", "parallel (default) | sequential: run every tool call one at a time").choices([
				"parallel",
				"sequential",
			]),
		)
		.option("--tools <list>", "comma-separated tools to enable (default: read,bash,edit,write; also grep,find,ls)", parseToolList)
		.option("--no-tools", "no tools at all")
		.option("--system-prompt <text>", "replace the default system prompt")
		.option("--append-system-prompt <text>", "add text to the system prompt")
		.option("-c, --continue", "continue the most recent session of this directory")
		.option("-r, --resume", "choose a session of this directory to resume")
		.option("--session <path|id>", "open a given session file, or id prefix")
		.option("--fork <path|id>", "continue a copy of a session (file or id prefix) in a new session; the original is untouched")
		.option("--no-session", "keep nothing on disk")
		.option("--no-context-files", "skip AGENTS.md / CLAUDE.md")
		.option("--max-turns <n>", "stop after n model turns", parsePositiveInt)
		.option("--mcp-config <file>", "MCP servers from this file (or JSON text) too, besides .mcp.json and $LOOM_HOME/mcp.json; repeatable", collect, [])
		.version(version, "-v, --version", "print the version")
		.helpOption("-h, --help", "show this help")
		.showHelpAfterError("(run loom --help for usage)")
		.configureOutput({ writeOut: output.out, writeErr: output.err })
		.exitOverride();
	program.addHelpText(
		"after",
		[
			"",
			"Examples:",
			"  loom                                   interactive session in this directory",
			'  loom -p "explain src/main.ts"          answer once and exit',
			'  git diff | loom -p "review this"       stdin is joined to the prompt',
			'  loom -p --mode json "run the tests"    one JSON event per line',
			"  loom -c                                continue the last session here",
			"  loom --list-models gemini              which Gemini models there are, and whether a key is set",
			"",
			"Environment:",
			`  ${BUILTINS.map((p) => p.apiKeyEnvs.join(" or ")).join(", ")}`,
			`  ${"".padEnd(39)}keys (or --api-key; local servers: apiKey in models.json)`,
			`  ${BUILTINS.map((p) => p.baseUrlEnv).join(", ")}`,
			`  ${"".padEnd(39)}endpoints (or --base-url)`,
			"  LOOM_HOME                              where settings, models.json and sessions live (default ~/.loom)",
			"",
			"Settings: $LOOM_HOME/settings.json; custom providers (Ollama, vLLM, ...): $LOOM_HOME/models.json",
			"",
			"Exit codes: 0 done, 1 model error, abort or unusable provider, 2 usage error,",
			"            129 hang-up (SIGHUP), 130 Ctrl+C, 141 stdout's reader went away, 143 SIGTERM",
		].join("\n"),
	);
	return program;
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
	const program = buildProgram(version, output);
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
	const args = program.args;
	const options: CliOptions = {
		print: raw.print === true,
		mode: raw.mode,
		provider: raw.provider,
		model: raw.model,
		baseUrl: raw.baseUrl,
		apiKey: raw.apiKey,
		thinking: raw.thinking,
		toolExecution: raw.toolExecution,
		tools: raw.tools === false ? [] : raw.tools,
		systemPrompt: raw.systemPrompt,
		appendSystemPrompt: raw.appendSystemPrompt,
		continue: raw.continue === true,
		resume: raw.resume === true,
		session: typeof raw.session === "string" ? nonEmpty(raw.session, "--session") : undefined,
		fork: typeof raw.fork === "string" ? parseForkTarget(raw.fork) : undefined,
		persist: raw.session !== false,
		contextFiles: raw.contextFiles !== false,
		maxTurns: raw.maxTurns,
		listModels: raw.listModels === undefined ? undefined : raw.listModels === true ? "" : String(raw.listModels),
		mcpConfig: raw.mcpConfig,
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
	if (!options.persist && picks.length > 0) throw new UsageError(`--no-session cannot be combined with ${picks[0]}.`);
}

/** A session argument must name something: an empty one would silently start a new session. */
function nonEmpty(value: string, flag: string): string {
	if (value.trim() === "") throw new UsageError(`${flag} needs a session file path or an id prefix.`);
	return value;
}

export function parseForkTarget(value: string): ForkTarget {
	return { session: nonEmpty(value, "--fork") };
}

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
