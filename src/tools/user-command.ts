// The user's own shell commands (the screen's `!command`), run as the bash tool runs the model's: with the
// user's shell ($SHELL, else /bin/sh), no input, in a process group of its own that is tracked (a background
// job does not hold the command, and is ended with the session), the output bounded (its end; all of it, up to
// a cap, in a file it names), secrets masked and escapes stripped.
import { textFromContent } from "../core/index.js";
import type { UserCommandRunner } from "../core/index.js";
import { createBashRunner } from "./bash.js";
import type { ToolContext } from "./builtin-tools.js";

export function createUserCommandRunner(cwd: string, context: ToolContext = {}): UserCommandRunner {
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
