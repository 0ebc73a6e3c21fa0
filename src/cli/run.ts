// Runs loom once the command line is parsed. The commands that need no session (--list-models, --export,
// --prune-checkpoints) load only what they use; everything else goes on in run-session.ts.
import { errorMessage, formatCount, formatSize, loomHome, loomHomeProblem, resolveSessionArgument, SessionFileError, stripControls } from "../core/index.js";
import type { CliOptions } from "./args.js";
import { CLI_WORDING, EXIT, fail, type RunIo, UsageError } from "./run-io.js";
import type { TypedAhead } from "./typed-ahead.js";

const defaultIo = (): RunIo => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });

/**
 * Returns the exit code. Usage errors are thrown as UsageError (exit 2) for main to report. `typedAhead`: the keys
 * typed since loom started, held for the screen.
 */
export async function run(options: CliOptions, io: RunIo = defaultIo(), version = "unknown", typedAhead?: TypedAhead): Promise<number> {
	const home = loomHome(io.env);
	const homeProblem = loomHomeProblem(io.env);
	if (homeProblem) throw new UsageError(homeProblem);
	if (options.listModels !== undefined) {
		const { printModelList } = await import("./list-models.js");
		return printModelList({ ...options, search: options.listModels }, { home, env: io.env, stdout: io.stdout, stderr: io.stderr });
	}
	if (options.command === "hooks") {
		const { runHooksCommand } = await import("./hooks-command.js");
		return runHooksCommand(options, home, io);
	}
	if (options.command === "login" || options.command === "logout" || options.command === "mcp") {
		const { runLoginCommand } = await import("./login-command.js");
		return runLoginCommand(options, home, io);
	}
	if (options.pruneCheckpoints || options.exportSession) {
		try {
			return await runOfflineCommand(options, home, io);
		} catch (error) {
			if (error instanceof SessionFileError) throw new UsageError(error.message);
			return fail(io, errorMessage(error));
		}
	}
	if (options.command === "batch" || options.command === "worker") {
		const { runBatchCommand, runWorkerCommand } = await import("./batch/index.js");
		return options.command === "batch" ? runBatchCommand(options, io) : runWorkerCommand(options, io);
	}
	const { runSession } = await import("./run-session.js");
	return runSession(options, home, options.worktree === undefined ? io : await inNewWorktree(options.worktree, home, io), version, typedAhead);
}

/** --worktree: the session's directory becomes the same place in a new worktree on a branch of its own, which stays after it. */
async function inNewWorktree(name: string, home: string, io: RunIo): Promise<RunIo> {
	const { startBranchWorktree } = await import("../plugs/index.js");
	let worktree;
	try {
		worktree = await startBranchWorktree(io.cwd, home, name || `session-${new Date().toISOString().slice(0, 16).replace(/\D/g, "")}`);
	} catch (error) {
		throw new UsageError(`--worktree: ${errorMessage(error)}`);
	}
	io.stderr.write(`loom: working in ${stripControls(worktree.path)} on the branch ${worktree.branch}; commit there, then /merge ${worktree.branch} (or git merge) from your tree.\n`);
	return { ...io, cwd: worktree.cwd };
}

/**
 * The commands that do one job on loom's files and exit, without a model: --prune-checkpoints and --export.
 * Returns the exit code; errors are thrown for run() to report.
 */
async function runOfflineCommand(options: CliOptions, home: string, io: Pick<RunIo, "stdout" | "cwd">): Promise<number> {
	if (options.pruneCheckpoints) {
		const { pruneCheckpoints } = await import("../plugs/index.js");
		const report = await pruneCheckpoints({ home, olderThanDays: options.pruneCheckpoints.days });
		io.stdout.write(
			`Removed the checkpoints of ${formatCount(report.runs, "prompt")} (${formatCount(report.sessions, "whole session")}, ${formatCount(report.projects, "project folder")}); freed ${formatSize(report.freedBytes)}.\n`,
		);
		return EXIT.ok;
	}
	const target = options.exportSession!;
	const file = resolveSessionArgument(target.session, home, io.cwd, CLI_WORDING.listSessions);
	const [{ exportSessionFile }, { createBuiltinTools }] = await Promise.all([import("../plugs/index.js"), import("../tools/index.js")]);
	// The built-in tools' presentation (diffs, argument summaries); nothing runs.
	const written = await exportSessionFile(file, target.file, { cwd: io.cwd, tools: createBuiltinTools(io.cwd).known });
	io.stdout.write(`${stripControls(written)}\n`);
	return EXIT.ok;
}
