// Where loom keeps its configuration, models.json and sessions (loom's home), the user's settings from
// <loomHome>/settings.json, and a project's own from <project>/.loom/settings.json; command-line flags override
// them (see src/cli).
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { THINKING_LEVELS } from "../ai/index.js";
import { APPROVAL_MODES, SANDBOX_MODES } from "./approval-mode.js";
import { expandHome, withoutBom, parseJson, readConfigText } from "../lib/index.js";
import { unknownKeys, unknownKeyWarning } from "./settings-keys.js";

/** Far above any real settings file; a bigger one is a mistake (or not a settings file at all). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

const ExecutionModeSchema = Type.Union([Type.Literal("parallel"), Type.Literal("sequential")]);
const ThinkingSchema = Type.Union(THINKING_LEVELS.map((level) => Type.Literal(level)));

const RuleListSchema = Type.Array(Type.String({ minLength: 1 }));

/** One matcher group of a hooks event, in Claude Code's schema: `{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "…"}]}`. */
const HookGroupSchema = Type.Object(
	{
		matcher: Type.Optional(Type.String()),
		hooks: Type.Array(
			Type.Object(
				{ type: Type.String(), command: Type.Optional(Type.String()), timeout: Type.Optional(Type.Number({ exclusiveMinimum: 0 })) },
				{ additionalProperties: true },
			),
		),
	},
	{ additionalProperties: true },
);
/** How a notification is written: see the `notify` setting. */
export const NOTIFY_VIA = ["auto", "bel", "osc9", "osc777", "off"] as const;
export type NotifyVia = (typeof NOTIFY_VIA)[number];
const NotifyViaSchema = Type.Union(NOTIFY_VIA.map((via) => Type.Literal(via)));

export const SettingsSchema = Type.Object(
	{
		/** Default provider: anthropic, openai, or one from models.json. */
		provider: Type.Optional(Type.String({ minLength: 1 })),
		/** Default model id; "provider/id" also accepted. */
		model: Type.Optional(Type.String({ minLength: 1 })),
		thinking: Type.Optional(ThinkingSchema),
		toolExecution: Type.Optional(ExecutionModeSchema),
		/** Per tool, by name: `executionMode` replaces the tool's own (bash is sequential). Names of tools not loaded are ignored. */
		tools: Type.Optional(
			Type.Record(Type.String(), Type.Object({ executionMode: Type.Optional(ExecutionModeSchema) }, { additionalProperties: true })),
		),
		retry: Type.Optional(
			Type.Object({
				/** Retries of a failed model request (0 disables retrying). */
				maxRetries: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
				/** End a request after this long without output. */
				idleTimeoutMs: Type.Optional(Type.Integer({ minimum: 1000 })),
			}),
		),
		/** The approval mode (default auto); what each allows: APPROVAL_MODE_TEXT. */
		approval: Type.Optional(Type.Union(APPROVAL_MODES.map((mode) => Type.Literal(mode)))),
		/** Approval rules such as "bash(npm test)", "edit(src/**)", "mcp__github__*"; deny beats allow. */
		allow: Type.Optional(RuleListSchema),
		deny: Type.Optional(RuleListSchema),
		/** Built-in guards by name; false turns one off (a project's own settings cannot). */
		guards: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
		/** The kernel sandbox of commands and stdio MCP servers (see the README's "Sandbox"); --sandbox overrides the mode. */
		sandbox: Type.Optional(
			Type.Object({
				/** Default: workspace-write where bubblewrap can run, else off (said once). */
				mode: Type.Optional(Type.Union(SANDBOX_MODES.map((mode) => Type.Literal(mode)))),
				/** More folders commands may write in workspace-write ("~/.npm", "/var/tmp/build"). */
				writableRoots: Type.Optional(RuleListSchema),
				/** Protected names inside writable roots that commands may write after all (".git" lets `git commit` run). */
				writableProtected: Type.Optional(RuleListSchema),
				/** More files and folders hidden from commands, besides ~/.ssh, ~/.aws and read deny rules. */
				hide: Type.Optional(RuleListSchema),
				network: Type.Optional(
					Type.Object({
						/** Hosts commands may reach through loom's proxy ("registry.npmjs.org", "*.github.com"); default none: the network is closed. */
						allow: Type.Optional(RuleListSchema),
					}),
				),
			}),
		),
		extensions: Type.Optional(
			Type.Object({
				/** How long an extension's import, and then its factory, may take before loom gives up on it (default 10000). */
				loadTimeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
			}),
		),
		/** Run every project's own code (.loom/extensions, .mcp.json servers) without asking; like --trust everywhere. */
		trustProjects: Type.Optional(Type.Boolean()),
		subagents: Type.Optional(
			Type.Object({
				/** How deep subagents may nest: 1 (default) lets the main session start children that cannot start their own; 0 turns the task tool off. */
				maxDepth: Type.Optional(Type.Integer({ minimum: 0, maximum: 5 })),
			}),
		),
		/** Shell commands run on the session's events, by event name (PreToolUse, Stop, …), in Claude Code's schema. */
		hooks: Type.Optional(Type.Record(Type.String(), Type.Array(HookGroupSchema))),
		checkpoints: Type.Optional(
			Type.Object({
				/** Record the working tree before each prompt so /rewind can restore files (default true). */
				enabled: Type.Optional(Type.Boolean()),
				/** Files larger than this are not recorded (listed instead). */
				maxFileBytes: Type.Optional(Type.Integer({ minimum: 0 })),
				/** More files than this to record at once: only write/edit pre-images are kept. */
				maxFiles: Type.Optional(Type.Integer({ minimum: 1 })),
			}),
		),
		/**
		 * How the screen calls the user back when a run ends or waits for an answer while the terminal is not
		 * focused, or after a long run: "auto" (default: OSC 9 or OSC 777 where the terminal is known to show it, else
		 * BEL), one of them by name, or "off"; as an object, with the run time after which it rings even when focused.
		 */
		notify: Type.Optional(
			Type.Union([
				NotifyViaSchema,
				Type.Object({
					via: Type.Optional(NotifyViaSchema),
					/** Ring after a run that took this long, focused or not (default 30; 0: after every run). */
					afterSeconds: Type.Optional(Type.Number({ minimum: 0 })),
				}),
			]),
		),
		web: Type.Optional(
			Type.Object({
				/** Loopback and private addresses web_fetch may reach: true for all, or host names and addresses. */
				allowPrivate: Type.Optional(Type.Union([Type.Boolean(), Type.Array(Type.String({ minLength: 1 }))])),
				/** A web_fetch gives up after this long (default 30000). */
				timeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
				/** MCP servers, by name, whose tools' results mark the session as tainted like a fetched page. */
				untrustedMcpServers: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
			}),
		),
		/**
		 * Language servers by language (typescript, python, go, rust, c, or a name of your own): each one's command,
		 * the file endings it covers, and how edits wait for its diagnostics; false turns them all off.
		 */
		lsp: Type.Optional(
			Type.Union([
				Type.Literal(false),
				Type.Record(
					Type.String(),
					Type.Object(
						{
							command: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
							extensions: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
							enabled: Type.Optional(Type.Boolean()),
							initializationOptions: Type.Optional(Type.Unknown()),
							/** How long an edit waits for the server's diagnostics at most (default 4000). */
							waitMs: Type.Optional(Type.Integer({ minimum: 0 })),
							/** Most diagnostics lines an edit's result gets (default 10). */
							maxLines: Type.Optional(Type.Integer({ minimum: 1 })),
							/** Report new warnings too, not only errors. */
							warnings: Type.Optional(Type.Boolean()),
						},
						{ additionalProperties: true },
					),
				),
			]),
		),
		compaction: Type.Optional(
			Type.Object({
				/** Compact automatically near the context window and after a context overflow (/compact works either way). */
				enabled: Type.Optional(Type.Boolean()),
				/** Tokens kept free below the context window (capped at half the window). */
				reserveTokens: Type.Optional(Type.Integer({ minimum: 0 })),
				/** About this many recent tokens stay verbatim after a compaction (capped at a quarter of the window). */
				keepRecentTokens: Type.Optional(Type.Integer({ minimum: 0 })),
			}),
		),
	},
	// Unknown keys are kept, so settings written by a newer loom (or a later feature) never break this one.
	{ additionalProperties: true },
);

export type Settings = Static<typeof SettingsSchema>;

/** Claude Code's settings key for its approval rules, refused rather than kept as an unknown key. */
const CLAUDE_CODE_PERMISSIONS = "permissions";

export class SettingsError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "SettingsError";
	}
}

export function settingsPath(home: string): string {
	return join(home, "settings.json");
}

/** A project's own settings file, read only for what may tighten the user's settings (approval rules). */
export function projectSettingsPath(cwd: string): string {
	return join(cwd, ".loom", "settings.json");
}

/** Reads and validates settings.json; a missing file means defaults ({}). */
export function loadSettings(home: string): Settings {
	return loadSettingsFile(settingsPath(home));
}

/** The project's .loom/settings.json, validated like the user's; a missing file means none ({}). */
export function loadProjectSettings(cwd: string): Settings {
	return loadSettingsFile(projectSettingsPath(cwd));
}

/** What was said about settings read from a file (its unknown keys), by the object read. */
const fileWarnings = new WeakMap<Settings, string[]>();

/** The warnings about the file `settings` were read from by loadSettings or loadProjectSettings; none for other objects. */
export function settingsWarnings(settings: Settings): readonly string[] {
	return fileWarnings.get(settings) ?? [];
}

function loadSettingsFile(file: string): Settings {
	let text: string | undefined;
	try {
		text = readConfigText(file, MAX_CONFIG_BYTES);
	} catch (error) {
		throw new SettingsError((error as Error).message);
	}
	if (text === undefined) return {};
	const settings = parseSettings(text, file);
	const warnings = unknownKeys(SettingsSchema, settings).map((key) => unknownKeyWarning(file, key));
	if (warnings.length > 0) fileWarnings.set(settings, warnings);
	return settings;
}

/** `text` may start with a UTF-8 byte-order mark (some editors write one); it is ignored. */
export function parseSettings(text: string, file: string): Settings {
	if (withoutBom(text).trim() === "") return {};
	let value: unknown;
	try {
		value = parseJson(text);
	} catch (error) {
		throw new SettingsError(`Invalid JSON in ${file}: ${(error as Error).message}. Fix the file or delete it to use defaults.`);
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		throw new SettingsError(`${file} must contain a JSON object, for example {"provider": "anthropic"}.`);
	}
	// Kept as an unknown key, Claude Code's block would leave its deny rules silently unapplied.
	if (CLAUDE_CODE_PERMISSIONS in value) {
		throw new SettingsError(
			`${file}: "${CLAUDE_CODE_PERMISSIONS}" is where Claude Code keeps its rules; loom does not read it. Move its "allow" and "deny" lists to the top level: {"allow": [...], "deny": [...]}.`,
		);
	}
	const problems = [...Value.Errors(SettingsSchema, value)].map(
		(error) => `  ${error.path || "/"}: ${describeExpectation(error.schema, error.message)} (got ${JSON.stringify(error.value)})`,
	);
	if (problems.length > 0) {
		throw new SettingsError(`Invalid settings in ${file}:\n${dedupe(problems).join("\n")}`);
	}
	return value as Settings;
}

// TypeBox says "Expected union value" for a set of literals; a person wants the allowed values.
function describeExpectation(schema: any, fallback: string): string {
	const options = Array.isArray(schema?.anyOf) ? schema.anyOf.map((member: any) => member?.const) : [];
	if (options.length > 0 && options.every((option: unknown) => typeof option === "string")) {
		return `must be one of ${options.join(", ")}`;
	}
	return fallback;
}

// A union failure is reported once per member; one line per path is enough for a person.
function dedupe(lines: string[]): string[] {
	const seen = new Set<string>();
	return lines.filter((line) => {
		const key = line.split(":")[0]!;
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
}

/** `$LOOM_HOME` when set (resolved to an absolute path), otherwise `~/.loom`. */
export function loomHome(env: NodeJS.ProcessEnv = process.env): string {
	const fromEnv = loomHomeVariable(env);
	if (!fromEnv) return join(homedir(), ".loom");
	// A "~" the shell did not expand would otherwise become a directory named "~" inside the project.
	return resolve(expandHome(fromEnv));
}

function loomHomeVariable(env: NodeJS.ProcessEnv): string | undefined {
	return env.LOOM_HOME?.trim() || undefined;
}

/**
 * Why loomHome(env) cannot be loom's home: it is a file, or lies inside one. Undefined when it is a folder or does
 * not exist yet (loom creates it); other failures are left to the reads that meet them.
 */
export function loomHomeProblem(env: NodeJS.ProcessEnv = process.env): string | undefined {
	const home = loomHome(env);
	let what: string;
	try {
		if (statSync(home).isDirectory()) return undefined;
		what = "is a file";
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOTDIR") return undefined;
		what = "lies inside a file";
	}
	const fromEnv = loomHomeVariable(env);
	return fromEnv
		? `LOOM_HOME=${fromEnv} ${what}, not a folder: point it at a folder or unset it.`
		: `${home} ${what}, not a folder: loom keeps its settings and sessions there; move the file away, or set LOOM_HOME to a folder.`;
}
