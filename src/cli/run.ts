// Runs loom once the command line is parsed. The commands that need no session (--list-models, --export,
// --prune-checkpoints) load only what they use; everything else goes on in run-session.ts.
import { errorMessage, loomHome, loomHomeProblem, SessionFileError } from "../core/index.js";
import type { CliOptions } from "./args.js";
import { fail, type RunIo } from "./run-io.js";
import { UsageError } from "./usage-error.js";

const defaultIo = (): RunIo => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });

/** Returns the exit code. Usage errors are thrown as UsageError (exit 2) for main to report. */
export async function run(options: CliOptions, io: RunIo = defaultIo(), version = "unknown"): Promise<number> {
	const home = loomHome(io.env);
	const homeProblem = loomHomeProblem(io.env);
	if (homeProblem) throw new UsageError(homeProblem);
	if (options.listModels !== undefined) {
		const { printModelList } = await import("./list-models.js");
		return printModelList({ ...options, search: options.listModels }, { home, env: io.env, stdout: io.stdout, stderr: io.stderr });
	}
	if (options.pruneCheckpoints || options.exportSession) {
		const { runOfflineCommand } = await import("./offline-commands.js");
		try {
			return await runOfflineCommand(options, home, io);
		} catch (error) {
			if (error instanceof SessionFileError) throw new UsageError(error.message);
			return fail(io, errorMessage(error));
		}
	}
	const { runSession } = await import("./run-session.js");
	return runSession(options, home, io, version);
}
