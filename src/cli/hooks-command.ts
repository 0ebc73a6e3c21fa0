// `loom hooks`: lists the settings hooks in force in this directory; `loom hooks test <event> --session <id>`
// replays a session's recorded events of that kind through them and prints what each would have decided.
import { errorMessage, resolveSessionArgument, SessionFileError, stripControls } from "../core/index.js";
import { listHooks, replayHooks } from "../plugs/index.js";
import type { CliOptions } from "./args.js";
import { CLI_WORDING, EXIT, fail, type RunIo, UsageError } from "./run-io.js";

export async function runHooksCommand(options: CliOptions, home: string, io: RunIo): Promise<number> {
	const [action, event, ...rest] = options.hooksArgs ?? [];
	const print = (lines: readonly string[]) => io.stdout.write(lines.map((line) => `${stripControls(line)}\n`).join(""));
	if (action === undefined || action === "list") {
		print(listHooks({ cwd: io.cwd, home }));
		return EXIT.ok;
	}
	if (action !== "test") throw new UsageError(`loom hooks takes "test <event> --session <id>" or nothing, not "${action}".`);
	if (event === undefined || rest.length > 0) throw new UsageError("loom hooks test takes one event name: loom hooks test PreToolUse --session <id>.");
	if (!options.session) throw new UsageError("loom hooks test needs --session <path|id>: the session whose events are replayed.");
	let file: string;
	try {
		file = resolveSessionArgument(options.session, home, io.cwd, CLI_WORDING.listSessions);
	} catch (error) {
		if (error instanceof SessionFileError) throw new UsageError(error.message);
		throw error;
	}
	try {
		print(await replayHooks({ cwd: io.cwd, home }, event, file));
		return EXIT.ok;
	} catch (error) {
		return fail(io, errorMessage(error));
	}
}
