// Runs git for the checkpoints: always with an explicit git directory, work tree and index, and with none of the
// user's GIT_* variables, so a call can never reach the user's own repository, index or refs (a loom started
// from a git hook has GIT_DIR and GIT_INDEX_FILE set, and they would otherwise win).
import { spawn } from "node:child_process";
import { formatSize } from "../../core/index.js";

export interface GitLocation {
	/** The shadow repository's git directory. */
	gitDir: string;
	/** The directory whose files are recorded. */
	workTree: string;
	/** The index file this caller stages into. */
	indexFile: string;
}

export interface GitCall {
	/** Written to git's stdin, then closed. */
	input?: string | Buffer;
	/** Stop reading after this many NUL-terminated records and report `truncated` (git is ended). */
	maxRecords?: number;
	/**
	 * Most bytes of output read (default DEFAULT_MAX_OUTPUT_BYTES): past it git is ended and the call fails, so a
	 * huge repository cannot fill loom's memory.
	 */
	maxBytes?: number;
	/** Ends git after this long (default 60 s): a checkpoint must never hang a run. */
	timeoutMs?: number;
	/** More `name=value` settings for this call. */
	config?: readonly string[];
}

export interface GitResult {
	stdout: Buffer;
	/** True when maxRecords was reached and git was ended early. */
	truncated: boolean;
}

export class GitError extends Error {
	constructor(
		message: string,
		readonly exitCode: number | null,
	) {
		super(message);
		this.name = "GitError";
	}
}

/**
 * Settings every call overrides whatever the user's global configuration says: no filesystem monitor daemon, no
 * line-ending conversion, symbolic links and executable bits recorded as they are, and the work tree accepted
 * whoever owns it (the shadow repository is loom's own).
 */
const CONFIG = [
	"core.fsmonitor=false",
	"core.autocrlf=false",
	"core.safecrlf=false",
	"core.symlinks=true",
	"core.filemode=true",
	"core.ignorecase=false",
	"core.quotepath=false",
	"safe.directory=*",
	"gc.auto=0",
	"advice.addEmbeddedRepo=false",
	"advice.addIgnoredFile=false",
];

const DEFAULT_TIMEOUT_MS = 60_000;
/** Far above what listing 30,000 files or diffing two trees of them writes. */
export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** The environment git runs with: the caller's minus every GIT_* variable, plus the ones that pin the call down. */
export function gitEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("GIT_")) env[key] = value;
	return {
		...env,
		// Paths are file names, never pathspec magic (":(top)", "*.c").
		GIT_LITERAL_PATHSPECS: "1",
		GIT_TERMINAL_PROMPT: "0",
		// Read-only calls in the user's repository must not refresh its index behind its back.
		GIT_OPTIONAL_LOCKS: "0",
		LC_ALL: "C",
		...extra,
	};
}

/** Runs `git <args>` in the shadow repository for `location`; rejects with GitError on a non-zero exit. */
export function shadowGit(location: GitLocation, args: readonly string[], call: GitCall = {}): Promise<GitResult> {
	const config = [...CONFIG, ...(call.config ?? [])];
	const global = ["--git-dir", location.gitDir, "--work-tree", location.workTree, ...config.flatMap((setting) => ["-c", setting])];
	return runGit([...global, ...args], { ...call, cwd: location.workTree, env: gitEnvironment({ GIT_INDEX_FILE: location.indexFile }) });
}

/** Runs git anywhere (the user's repository, read-only questions only). */
export function runGit(args: readonly string[], options: GitCall & { cwd: string; env?: NodeJS.ProcessEnv }): Promise<GitResult> {
	const name = subcommand(args);
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
	return new Promise((resolve, reject) => {
		const child = spawn("git", args, { cwd: options.cwd, env: options.env ?? gitEnvironment(), stdio: ["pipe", "pipe", "pipe"] });
		const chunks: Buffer[] = [];
		let bytes = 0;
		let records = 0;
		let truncated = false;
		let failure: GitError | undefined;
		let stderr = "";
		/** Ends git and fails the call at once (a git stuck in the kernel must not hold it). */
		const stop = (error: GitError) => {
			if (failure) return;
			failure = error;
			child.kill("SIGKILL");
			clearTimeout(timer);
			reject(error);
		};
		const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
		const timer = setTimeout(() => stop(new GitError(`git ${name} took longer than ${timeoutMs / 1000} s and was stopped.`, null)), timeoutMs);
		child.stdout.on("data", (chunk: Buffer) => {
			if (truncated || failure) return;
			bytes += chunk.length;
			if (bytes > maxBytes) return stop(new GitError(`git ${name} wrote more than ${formatSize(maxBytes)}; it was stopped.`, null));
			chunks.push(chunk);
			if (options.maxRecords === undefined) return;
			for (let at = chunk.indexOf(0); at !== -1; at = chunk.indexOf(0, at + 1)) records++;
			if (records > options.maxRecords) {
				truncated = true;
				child.kill("SIGKILL");
			}
		});
		child.stderr.on("data", (chunk: Buffer) => {
			if (stderr.length < 4096) stderr += chunk.toString("utf8");
		});
		child.on("error", (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on("close", (code) => {
			clearTimeout(timer);
			if (failure) return;
			if (truncated || code === 0) resolve({ stdout: Buffer.concat(chunks), truncated });
			else reject(new GitError(stderr.trim() || `git exited with code ${code}`, code));
		});
		// A git that exits before reading all of its input (an error) must not surface as an EPIPE.
		child.stdin.on("error", () => {});
		child.stdin.end(options.input ?? "");
	});
}

/** Options before the subcommand that take the next argument as their value. */
const GLOBAL_WITH_VALUE = new Set(["--git-dir", "--work-tree", "-c", "-C"]);

/** "cat-file" of `--git-dir x -c a=b cat-file --batch`, for messages. */
function subcommand(args: readonly string[]): string {
	for (let index = 0; index < args.length; index++) {
		if (GLOBAL_WITH_VALUE.has(args[index]!)) index++;
		else if (!args[index]!.startsWith("-")) return args[index]!;
	}
	return "";
}

/** NUL-separated records, without the empty one after the last NUL. */
export function nulRecords(output: Buffer): string[] {
	const text = output.toString("utf8");
	const records = text.split("\0");
	if (records.at(-1) === "") records.pop();
	return records;
}

let available: Promise<boolean> | undefined;

/** Whether a git command can be run at all (checked once per process). */
export function gitAvailable(): Promise<boolean> {
	available ??= runGit(["--version"], { cwd: process.cwd(), timeoutMs: 10_000 }).then(
		() => true,
		() => false,
	);
	return available;
}
