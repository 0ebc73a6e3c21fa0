// An option of createAgentSession that cannot be used; the CLI reports it under the flag's name as a usage error.

export class SessionOptionError extends Error {
	constructor(
		/** The option's name in CreateAgentSessionOptions. */
		readonly option: string,
		/** What is wrong and what to do, without the option's name. */
		readonly problem: string,
	) {
		super(`${option}: ${problem}`);
		this.name = "SessionOptionError";
	}
}
