// A shell command the user typed (`!command` on the screen), run for the user, not the model. The session runs
// it with the runner its assembly gave it (the bash tool's: core never imports src/tools).

export interface UserCommandOptions {
	/** Aborting stops the command with everything it started. */
	signal?: AbortSignal;
	/** The latest output (its last lines) while the command runs, secrets masked. */
	onUpdate?: (output: string) => void;
}

export interface UserCommandResult {
	/** stdout and stderr together: its end when long (saying where all of it is), secrets masked, no escapes. */
	output: string;
	/** Null when the command was stopped or ended by a signal. */
	exitCode: number | null;
}

/** Runs a command in the session's directory; rejects only when it cannot start. */
export type UserCommandRunner = (command: string, options?: UserCommandOptions) => Promise<UserCommandResult>;
