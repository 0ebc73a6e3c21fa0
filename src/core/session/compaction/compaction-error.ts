// The ways a compaction can end without a summary; the session turns them into compaction_end events.

export type CompactionErrorCode =
	/** The signal fired: nothing was changed. */
	| "aborted"
	/** The conversation is already within the recent part kept verbatim. */
	| "nothing_to_compact"
	/** The provider failed or returned no summary. */
	| "summary_failed";

export class CompactionError extends Error {
	constructor(
		readonly code: CompactionErrorCode,
		message: string,
	) {
		super(message);
		this.name = "CompactionError";
	}
}

export function isCompactionAborted(error: unknown): boolean {
	return error instanceof CompactionError && error.code === "aborted";
}

export function compactionAborted(): CompactionError {
	return new CompactionError("aborted", "Compaction aborted; the session is unchanged.");
}
