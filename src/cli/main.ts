// Entry of the `loom` command. Kept small: parsing needs only commander; everything heavier is imported
// on the path that needs it, so `loom --version` and `loom --help` start fast.
import "./signals-first.js";
import { createRequire } from "node:module";
import { stderrLine } from "../core/index.js";
import { EXIT, UsageError } from "./run-io.js";
import { runsScreen } from "./runs-screen.js";
import { parseArgs } from "./args.js";
import { installProcessGuards } from "./termination.js";
import { holdTypedKeys } from "./typed-ahead.js";

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

async function main(argv: string[]): Promise<number> {
	try {
		const parsed = parseArgs(argv, version);
		if (parsed.kind === "exit") return parsed.code;
		// From here the keys typed for the screen wait for it, however long it takes to load.
		const screen = runsScreen(parsed.options, process);
		const typedAhead = screen ? holdTypedKeys(process.stdin) : undefined;
		// The editor is drawn at once, before the session and the screen load (not where a session picker comes first).
		if (screen && !parsed.options.resume) {
			const firstFrame = (await import("../tui/index.js")).drawFirstFrame(process.stdout, process.stderr);
			if (firstFrame && typedAhead) typedAhead.onTyped((typed) => firstFrame.showTyped(typed));
		}
		const { run } = await import("./run.js");
		return await run(parsed.options, undefined, version, typedAhead);
	} catch (error) {
		if (error instanceof UsageError) {
			process.stderr.write(`${stderrLine(error.message)}(run loom --help for usage)\n`);
			return EXIT.usage;
		}
		process.stderr.write(stderrLine(`unexpected error: ${(error as Error)?.stack ?? String(error)}`));
		return EXIT.failure;
	}
}

/**
 * Resolves once everything written to the stream so far has been handed to the reader (or the reader is gone).
 * A pipe's writes are queued in the process; exiting before they drain would drop the last lines.
 */
function drained(stream: NodeJS.WriteStream): Promise<void> {
	if (stream.destroyed || stream.writableLength === 0) return Promise.resolve();
	return new Promise((resolve) => {
		stream.once("close", resolve);
		// A write's callback runs after every earlier write has been flushed, or with the error that stopped them.
		stream.write("", () => resolve());
	});
}

let finished = false;
installProcessGuards(() => finished);
// Exit explicitly: an SDK's keep-alive sockets must not hold the process open after the answer.
main(process.argv.slice(2))
	.then(async (code) => {
		finished = true;
		await Promise.all([drained(process.stdout), drained(process.stderr)]);
		return code;
	})
	.then((code) => process.exit(code));
