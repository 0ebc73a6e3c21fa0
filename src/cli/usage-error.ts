// Errors in how loom was called: reported in one line and exit code 2.
export class UsageError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "UsageError";
	}
}

export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130, terminated: 143 } as const;
