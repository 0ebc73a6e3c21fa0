// Errors in how loom was called: reported in one line and exit code 2.
import type { SessionOptionError } from "../sdk/index.js";

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
const FLAGS: Readonly<Record<string, string>> = { tools: "--tools", model: "--model", provider: "--provider", extensions: "--extension" };

/** An option createAgentSession refused, as a usage error under its flag's name. */
export function optionUsageError(error: SessionOptionError): UsageError {
	return new UsageError(`${FLAGS[error.option] ?? error.option}: ${error.problem}`);
}
