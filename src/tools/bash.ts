// The bash tool: one shell command, live output, the tail returned, failures thrown with their reason.
import fs from "node:fs";
import { type Static, Type } from "@sinclair/typebox";
import type { AgentToolResult, ConfineSpawn, ProcessGroupSet, UserCommandRunner } from "../core/index.js";
import {
	isDirectory,
	formatSize,
	rawBoolean,
	rawNumber,
	rawString,
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	truncateTail,
	compactArgs,
	errorLines,
	type StyledLine,
	type ToolDefinition,
	type ToolPresentation,
	oneLine,
	tailLines,
	textFromContent,
} from "../core/index.js";
import { formatCollectedOutput, MAX_OUTPUT_FILE_BYTES, OutputCollector } from "./output-collector.js";
import type { BackgroundShells, BackgroundSpawn } from "./background-shells.js";
import { describeBackgroundRead } from "./background-shell-tools.js";
import { type RunCommandOutcome, runCommand } from "./run-command.js";

/** What a progress update carries: the latest output, not the whole tail the model will get. */
const LIVE_TAIL = { maxLines: 50, maxBytes: 4096 };

export const bashSchema = Type.Object({
	command: Type.String({ description: "Shell command to run" }),
	timeout: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: "Timeout in seconds (no timeout if omitted)" })),
	background: Type.Optional(
		Type.Boolean({ description: "Start it as a background shell (a server, a watcher): returns at once with its id and first lines; read more with bash_output, stop it with bash_kill" }),
	),
});

export type BashToolInput = Static<typeof bashSchema>;

export interface BashToolOptions {
	/** Shell run as `shell -c command`; default /bin/bash, else /bin/sh. */
	shell?: string;
	/** Extra environment variables (added to the agent's own). */
	env?: NodeJS.ProcessEnv;
	/** Seconds, used when a call gives no timeout; default none. */
	defaultTimeout?: number;
	/** Between SIGTERM and SIGKILL when a command is stopped; default 500 ms. */
	killGraceMs?: number;
	/** Limits of the output returned to the model; default 2000 lines, 50 KB. */
	maxLines?: number;
	maxBytes?: number;
	/** Least time between live updates; default 100 ms. */
	updateIntervalMs?: number;
	/** Most bytes of a long output kept in its file (its head and its tail); default 64 MB. */
	maxOutputFileBytes?: number;
	/**
	 * Applied to the output's text before anyone sees it: each live update (`live`: it may start or end inside
	 * a secret, where the output was cut), the result and the error. The approval policy masks secrets with it.
	 */
	redact?: (text: string, live: boolean) => string;
	/** Tracks the commands' process groups for their owner (a session kills them when disposed). */
	processGroups?: ProcessGroupSet;
	/** Starts each command inside the session's sandbox (see plugs/sandbox); default unconfined. */
	confine?: ConfineSpawn;
	/** Where `background: true` commands run on (the session's registry, shared with bash_output and bash_kill). */
	backgroundShells?: BackgroundShells;
}

export interface BashToolDetails {
	/** null while running, or when the command was ended by a signal. */
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	timedOut: boolean;
	aborted: boolean;
	/** The text holds only the tail of the output. */
	truncated: boolean;
	/** Complete output, present when truncated. */
	fullOutputPath?: string;
	/** Bytes of output so far. */
	totalBytes: number;
	/** Set when the command was started as a background shell: its id. */
	background?: string;
}

/** Thrown when the command fails; the message is what the model reads, details are for the screen. */
export class BashToolError extends Error {
	constructor(
		message: string,
		readonly details: BashToolDetails,
	) {
		super(message);
		this.name = "BashToolError";
	}
}

function defaultShell(): string {
	return fs.existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
}

function describe(maxLines: number, maxBytes: number, maxFileBytes: number): string {
	return `Run a shell command (bash -c) in the working directory, with stdin closed (interactive programs will not work). stdout and stderr come back merged.
Output is the last ${maxLines} lines or ${formatSize(maxBytes)}, whichever is smaller; when cut, the complete output (up to ${formatSize(maxFileBytes)}: the start and the end of a longer one) is saved to a temporary file whose path is given, to read or grep while this session runs.
A non-zero exit code, a signal, or a timeout is reported as an error together with the output. timeout is in seconds (optional). Commands run one at a time.
For a command that keeps running (a dev server, a watcher, a long build), pass background: true: the call returns at once with the shell's id (bg1, …) and its first lines; bash_output reads what it printed since, bash_kill stops it, and every background shell is stopped when the session ends.
Jobs started with & in a command keep running until loom exits, but what they print after the command returns is not captured: send it to a file (cmd > out.log 2>&1 &), or use background: true.`;
}

/** Output lines a row shows: the newest ones tell how a command is going and how it ended. */
const ROW_OUTPUT_LINES = 5;

/** "exit 0", "timed out", "killed by SIGKILL", … with the full output's path when the output was cut. */
function bashStatus(details: unknown): StyledLine | undefined {
	const background = rawString(details, "background");
	if (background) return { text: `background shell ${background} (/bashes lists them)`, style: "dim" };
	const notes: string[] = [];
	const fullOutputPath = rawString(details, "fullOutputPath");
	if (rawBoolean(details, "truncated") && fullOutputPath) notes.push(`full output: ${fullOutputPath}`);
	const suffix = notes.length > 0 ? ` · ${notes.join(" · ")}` : "";
	const signal = rawString(details, "signal");
	const exitCode = rawNumber(details, "exitCode");
	if (rawBoolean(details, "timedOut")) return { text: `timed out${suffix}`, style: "error" };
	if (rawBoolean(details, "aborted")) return { text: `interrupted${suffix}`, style: "warning" };
	if (signal) return { text: `killed by ${signal}${suffix}`, style: "error" };
	if (exitCode !== undefined) return { text: `exit ${exitCode}${suffix}`, style: exitCode === 0 ? "ok" : "error" };
	return suffix ? { text: suffix.slice(3), style: "dim" } : undefined;
}

/** The row shows the command, its last lines of output while it runs, then how it ended. */
const presentation: ToolPresentation = {
	promptGuide: "run a shell command in the working directory: search (rg, grep, find, ls), build, test, git",
	promptRules: ["Use bash to search and to run builds and tests; do not use it to edit files when edit or write can."],
	summarizeArgs(args) {
		const command = rawString(args, "command", "cmd");
		return command === undefined ? compactArgs(args) : oneLine(command);
	},
	shellCommand: (args) => rawString(args, "command"),
	updateLines: (row, max) => tailLines(row.progressText, Math.min(ROW_OUTPUT_LINES, max), "dim"),
	resultLines(row, max) {
		const status = bashStatus(row.details);
		const budget = Math.min(ROW_OUTPUT_LINES, status ? max - 1 : max);
		const shown = { ...row, resultText: withoutStatusNotes(row.resultText, row.details) };
		if (row.status === "error") {
			const lines = errorLines(shown, budget);
			return status ? [...lines, { ...status, style: "error" }] : lines;
		}
		const output = tailLines(shown.resultText, budget, "dim");
		return status ? [...output, status] : output;
	},
};

/** The sentence failureReason adds after the output, and the note formatOutput adds when the output was cut. */
const FAILURE_REASON = /\n\nCommand [^\n]*\.$/;
const CUT_NOTE = /\n\n\[Output cut: [^\n]*\]$/;

/** The result as a row shows it above its status line: without the notes that line says again (how it ended, the full output's file). */
function withoutStatusNotes(text: string | undefined, details: unknown): string | undefined {
	if (text === undefined || !bashStatus(details)) return text;
	const output = text.replace(FAILURE_REASON, "");
	return rawBoolean(details, "truncated") && rawString(details, "fullOutputPath") ? output.replace(CUT_NOTE, "") : output;
}

function failureReason(outcome: RunCommandOutcome, timeoutSeconds: number | undefined): string | undefined {
	if (outcome.aborted) return "Command aborted.";
	if (outcome.timedOut) return `Command timed out after ${timeoutSeconds} s.`;
	if (outcome.signal) return `Command killed by ${outcome.signal}.`;
	if (outcome.exitCode !== 0) return `Command failed with exit code ${outcome.exitCode}.`;
	return undefined;
}

function checkCommand(command: unknown): void {
	if (typeof command !== "string" || command.trim() === "") throw new Error("command must be a non-empty string: the shell command to run.");
	if (command.includes("\0")) throw new Error("command contains a NUL byte, which no shell command can carry; remove it.");
}

/** How every command of the bash tool is started, in the foreground or the background: the one spawn path. */
function commandSpawn(cwd: string, command: string, options: BashToolOptions): BackgroundSpawn {
	return {
		shell: options.shell ?? defaultShell(),
		command,
		cwd,
		env: options.env ? { ...process.env, ...options.env } : undefined,
		killGraceMs: options.killGraceMs ?? 500,
		processGroups: options.processGroups,
		confine: options.confine,
	};
}

function checkCwd(cwd: string): void {
	if (!isDirectory(cwd)) throw new Error(`Working directory ${cwd} does not exist or is not a directory; the command was not run.`);
}

/** One command run the bash tool's way: its output as the model reads it, how it ended, and why it failed. */
export interface BashRun {
	output: string;
	details: BashToolDetails;
	/** "Command failed with exit code 2.", … ; undefined when the command succeeded. */
	failure?: string;
}

/** Runs commands as the bash tool does; throws when a command cannot start (bad arguments, no such directory). */
export type BashRunner = (
	params: BashToolInput,
	signal?: AbortSignal,
	onUpdate?: (partial: AgentToolResult<BashToolDetails>) => void,
) => Promise<BashRun>;

export function createBashRunner(cwd: string, options: BashToolOptions = {}): BashRunner {
	const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	const updateIntervalMs = options.updateIntervalMs ?? 100;
	const redact = options.redact ?? ((text: string) => text);
	return async (params, signal, onUpdate) => {
		checkCommand(params.command);
		const timeoutSeconds = params.timeout ?? options.defaultTimeout;
		if (timeoutSeconds !== undefined && !(Number.isFinite(timeoutSeconds) && timeoutSeconds > 0)) {
			throw new Error(`timeout must be a positive number of seconds, got ${params.timeout}.`);
		}
		if (signal?.aborted) throw new Error("Command aborted before it started.");
		checkCwd(cwd);

		const collector = new OutputCollector({ maxLines, maxBytes, maxFileBytes: options.maxOutputFileBytes });
		const running = (): BashToolDetails => {
			const path = collector.spillPath;
			return {
				exitCode: null,
				signal: null,
				timedOut: false,
				aborted: false,
				truncated: path !== undefined,
				...(path ? { fullOutputPath: path } : {}),
				totalBytes: collector.totalBytes,
			};
		};
		let lastUpdateAt = 0;
		let updateTimer: NodeJS.Timeout | undefined;
		const sendUpdate = () => {
			updateTimer = undefined;
			lastUpdateAt = Date.now();
			// Progress shows only the latest lines: ten updates a second of the full 50 KB tail would flood
			// JSON-mode readers and the screen for nothing.
			const live = truncateTail(collector.tail().content, LIVE_TAIL).content;
			onUpdate?.({ content: [{ type: "text", text: redact(live, true) }], details: running() });
		};
		const scheduleUpdate = () => {
			if (!onUpdate || updateTimer) return;
			updateTimer = setTimeout(sendUpdate, Math.max(0, lastUpdateAt + updateIntervalMs - Date.now()));
		};

		let outcome: RunCommandOutcome;
		try {
			outcome = await runCommand({
				...commandSpawn(cwd, params.command, options),
				timeoutSeconds,
				signal,
				onChunk: (chunk) => {
					const accepted = collector.write(chunk);
					scheduleUpdate();
					return accepted;
				},
				resume: () => collector.drained(),
			});
		} finally {
			if (updateTimer) clearTimeout(updateTimer);
		}

		const collected = await collector.finish();
		const details: BashToolDetails = {
			exitCode: outcome.exitCode,
			signal: outcome.signal,
			timedOut: outcome.timedOut,
			aborted: outcome.aborted,
			truncated: collected.truncation.truncated,
			...(collected.fullOutputPath ? { fullOutputPath: collected.fullOutputPath } : {}),
			totalBytes: collected.totalBytes,
		};
		const output = redact(formatCollectedOutput(collected), false);
		return { output, details, failure: failureReason(outcome, timeoutSeconds) };
	};
}

export function createBashTool(cwd: string, options: BashToolOptions = {}): ToolDefinition<typeof bashSchema, BashToolDetails> {
	const run = createBashRunner(cwd, options);
	return {
		name: "bash",
		label: "Bash",
		description: describe(options.maxLines ?? DEFAULT_MAX_LINES, options.maxBytes ?? DEFAULT_MAX_BYTES, options.maxOutputFileBytes ?? MAX_OUTPUT_FILE_BYTES),
		parameters: bashSchema,
		...presentation,
		// Commands share the working tree and the terminal's processes; one at a time keeps them predictable.
		executionMode: "sequential",
		async execute(_toolCallId, params, signal, onUpdate) {
			if (params.background) return startInBackground(cwd, params, options);
			const { output, details, failure } = await run(params, signal, onUpdate);
			if (failure) throw new BashToolError(`${output}\n\n${failure}`, details);
			const result: AgentToolResult<BashToolDetails> = { content: [{ type: "text", text: output }], details };
			return result;
		},
	};
}

/** Starts a background shell and returns its id and first lines (the details say where it is, not how bash ended). */
async function startInBackground(cwd: string, params: BashToolInput, options: BashToolOptions): Promise<AgentToolResult<BashToolDetails>> {
	checkCommand(params.command);
	if (!options.backgroundShells) throw new Error("This bash cannot start background shells; run the command without background.");
	if (params.timeout !== undefined) throw new Error("A background shell has no timeout: it runs until bash_kill stops it or the session ends. Leave timeout out.");
	checkCwd(cwd);
	const read = await options.backgroundShells.start(commandSpawn(cwd, params.command, options));
	const details: BashToolDetails = {
		exitCode: read.outcome?.exitCode ?? null,
		signal: read.outcome?.signal ?? null,
		timedOut: false,
		aborted: false,
		truncated: false,
		totalBytes: 0,
		background: read.shell.id,
	};
	return { content: [{ type: "text", text: describeBackgroundRead(read, true) }], details };
}

/**
 * The user's own shell commands (the screen's `!command`), run as the bash tool runs the model's: with the
 * user's shell ($SHELL, else /bin/sh), no input, in a process group of its own that is tracked (a background
 * job does not hold the command, and is ended with the session), the output bounded (its end; all of it, up to
 * a cap, in a file it names), secrets masked and escapes stripped.
 */
export function createUserCommandRunner(cwd: string, context: Pick<BashToolOptions, "processGroups" | "redact"> = {}): UserCommandRunner {
	const run = createBashRunner(cwd, { shell: process.env.SHELL || "/bin/sh", processGroups: context.processGroups, redact: context.redact });
	return async (command, options = {}) => {
		const { onUpdate } = options;
		const { output, details } = await run(
			{ command },
			options.signal,
			onUpdate && ((partial) => onUpdate(textFromContent(partial.content, { separator: "" }))),
		);
		return { output: details.totalBytes === 0 ? "" : output, exitCode: details.aborted ? null : details.exitCode };
	};
}
