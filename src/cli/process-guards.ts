// How loom's process ends when something escapes the command: an error nothing caught, or an event loop that runs
// dry while the command still waits. An uncaught error is first offered to whoever runs foreign code in the
// process (an extension's throw in its own timer is its host's to report, and the run ends as an error); any other
// is loom's own failure, said in one line as main says one. A command that has not finished never ends in exit 0.
import { offerUncaughtError, onProcessExit, stderrLine } from "../core/index.js";
import { EXIT } from "./run-io.js";

/** `finished`: whether the command has come to its end (its exit code is known). */
export function installProcessGuards(finished: () => boolean): void {
	process.on("uncaughtException", (error) => {
		if (offerUncaughtError(error)) return;
		process.stderr.write(stderrLine(`unexpected error: ${(error as Error | undefined)?.stack ?? String(error)}`));
		process.exit(EXIT.failure);
	});
	// Exit code 0 here means nobody chose one: the loop ran dry, so what the command waited for can never come.
	onProcessExit(() => {
		if (finished() || (process.exitCode !== undefined && process.exitCode !== 0)) return;
		process.stderr.write(stderrLine("stopped before the work was done: it waited on something that can never happen (please report this)."));
		process.exitCode = EXIT.failure;
	});
}
