// Which runs of loom are the interactive screen: decided once the command line is parsed (main holds the keys
// typed for the screen from then on) and again by the session's run; one rule for both.
import type { CliOptions } from "./args.js";
import type { RunIo } from "./run-io.js";

/** Whether the options and the streams make this run the interactive screen (a terminal both ways, no other mode). */
export function runsScreen(
	options: Pick<CliOptions, "print" | "mode" | "command" | "listModels" | "pruneCheckpoints" | "exportSession">,
	io: Pick<RunIo, "stdin" | "stdout">,
): boolean {
	const otherCommand = options.command !== undefined || options.listModels !== undefined || Boolean(options.pruneCheckpoints) || options.exportSession !== undefined;
	return !otherCommand && !options.print && options.mode === undefined && io.stdin.isTTY === true && io.stdout.isTTY === true;
}
