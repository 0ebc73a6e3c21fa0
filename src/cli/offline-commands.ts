// Commands that do one job on loom's files and exit, without a model: --prune-checkpoints and --export.
// Each loads only what it uses.
import { formatCount, formatSize, resolveSessionArgument, stripControls } from "../core/index.js";
import { EXIT } from "./exit-codes.js";
import type { CliOptions } from "./args.js";

export interface OfflineIo {
	stdout: NodeJS.WritableStream;
	cwd: string;
}

/** Runs --prune-checkpoints or --export; returns the exit code. Errors are thrown for run() to report. */
export async function runOfflineCommand(options: CliOptions, home: string, io: OfflineIo): Promise<number> {
	if (options.pruneCheckpoints) {
		const { pruneCheckpoints } = await import("../plugs/index.js");
		const report = await pruneCheckpoints({ home, olderThanDays: options.pruneCheckpoints.days });
		io.stdout.write(
			`Removed the checkpoints of ${formatCount(report.runs, "prompt")} (${formatCount(report.sessions, "whole session")}, ${formatCount(report.projects, "project folder")}); freed ${formatSize(report.freedBytes)}.\n`,
		);
		return EXIT.ok;
	}
	const target = options.exportSession!;
	const file = resolveSessionArgument(target.session, home, io.cwd);
	const [{ exportSessionFile }, { createBuiltinTools }] = await Promise.all([import("../plugs/index.js"), import("../tools/index.js")]);
	// The built-in tools' presentation (diffs, argument summaries); nothing runs.
	const written = await exportSessionFile(file, target.file, { cwd: io.cwd, tools: createBuiltinTools(io.cwd).known });
	io.stdout.write(`${stripControls(written)}\n`);
	return EXIT.ok;
}
