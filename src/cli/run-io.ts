// What a run of loom reads and writes, and how it ends: its exit codes, the errors in how loom was called, and the
// report of a failure. Shared by the commands that need no session and the session's modes.
import { stderrLine } from "../core/index.js";
import type { SessionOptionError } from "../sdk/index.js";

/** The flag that passes a key explicitly; what the missing-key messages of a command-line run tell the user to pass. */
export const API_KEY_FLAG = "--api-key";

/**
 * The variable that means the same as --api-key (the flag wins): how a key reaches a loom loom starts (a batch's
 * tasks) without showing on its command line, which every user of the machine can read (`ps`).
 */
export const API_KEY_ENV = "LOOM_API_KEY";

/**
 * What core's messages tell a command-line user to set or run, in the command's flags (core's own defaults name
 * the SDK's options): the model layer's, and the session's.
 */
export const CLI_WORDING = {
	apiKey: API_KEY_FLAG,
	baseUrl: "--base-url",
	provider: "--provider",
	listModels: "loom --list-models shows the known ones.",
	notSaved: "not saved (--no-session)",
	listSessions: "Run `loom -r` to list this directory's sessions.",
} as const;

/**
 * How loom's process ends, the same in every mode (print, JSON, RPC, the screen). 128 + the signal's number, as a
 * shell reports it; 141 (SIGPIPE) for a program whose reader closed the pipe. 3: the answer was still not valid
 * against --output-schema after the model was asked once more.
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, invalidOutput: 3, hangup: 129, interrupted: 130, brokenPipe: 141, terminated: 143 } as const;

export interface RunIo {
	stdin: NodeJS.ReadStream;
	stdout: NodeJS.WriteStream;
	stderr: NodeJS.WriteStream;
	env: NodeJS.ProcessEnv;
	cwd: string;
}

/** Reports on stderr; the message may carry a server's or a file's text, so its escape sequences are stripped. */
export function fail(io: RunIo, message: string): number {
	io.stderr.write(stderrLine(message));
	return EXIT.failure;
}

/**
 * Outside the screen, stdout carries loom's output: the answer (print mode), the events (JSON mode) or the
 * protocol (RPC, ACP). What other code in this process prints there (an extension's console.log) goes to stderr.
 * The screen needs none of this: it shows console output above its frame.
 */
export function consoleToStderr(): void {
	console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
}

/** An error in how loom was called: reported in one line and exit code 2. */
export class UsageError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "UsageError";
	}
}

/**
 * The user stopped loom before a run started: Ctrl+C, or a cancelled session picker (Esc, q, Ctrl+D, as fzf
 * counts them). Exit 130 with `reason` on one line, nothing to abort.
 */
export class InterruptedError extends Error {
	constructor(reason = "interrupted") {
		super(reason);
		this.name = "InterruptedError";
	}
}

/** The flag each option of createAgentSession comes from. */
const FLAGS: Readonly<Record<string, string>> = { tools: "--tools", model: "--model", provider: "--provider", extensions: "--extension", agent: "--agent" };

/** An option createAgentSession refused, as a usage error under its flag's name. */
export function optionUsageError(error: SessionOptionError): UsageError {
	return new UsageError(`${FLAGS[error.option] ?? error.option}: ${error.problem}`);
}
