// The port through which a session restores the working tree when it rewinds: whoever records checkpoints of the
// files (loom's shadow git repository, or a test's fake) installs one with session.setFileCheckpoints(). Core
// knows only what a restore would do and asks the user about it; how files are recorded is not its business.

/** What restoring does to one file. */
export type FileAction =
	/** The file was changed since: its earlier content is written back. */
	| "restore"
	/** The file did not exist then (created since): it is deleted. */
	| "delete"
	/** The file was deleted since: it is written again. */
	| "recreate";

export interface FileChange {
	/** Relative to the recorded directory, "/"-separated. */
	path: string;
	action: FileAction;
}

export interface RestoreReport {
	/** Paths as in FileChange, by what was done. */
	restored: string[];
	deleted: string[];
	recreated: string[];
	/** Left as they are on request (the user's own changes). */
	kept: string[];
	failed: { path: string; error: string }[];
}

/** A restore worked out and not yet done: what it would change, and which of those files the user changed. */
export interface FilesRestore {
	/** The directory whose files are restored. */
	root: string;
	changes: readonly FileChange[];
	/** Among `changes`: files changed after the agent's runs, by someone else (content differs from when the run ended). */
	userChanged: readonly string[];
	/** What a restore leaves as it is, and why (over the size limit, not recorded). */
	notRestored: readonly { path: string; reason: string }[];
	/** Said once before the list: a limit of what was recorded (e.g. only write/edit pre-images, not bash). */
	note?: string;
	/** Does it, leaving the files in `keep` as they are. */
	apply(options?: { keep?: readonly string[] }): Promise<RestoreReport>;
}

export interface FileCheckpoints {
	/** Which of these prompts (session entry ids) have a checkpoint the files can be put back to. */
	checkpointed(promptEntryIds: readonly string[]): Promise<ReadonlySet<string>>;
	/** Works out the restore to before this prompt; a string says why it cannot be done. */
	prepare(promptEntryId: string): Promise<FilesRestore | string>;
}

/** Lists of paths for a notice: the first few, then how many more. */
export function describePaths(paths: readonly string[], max = 8): string {
	const shown = paths.slice(0, max).join(", ");
	return paths.length > max ? `${shown} and ${paths.length - max} more` : shown;
}
