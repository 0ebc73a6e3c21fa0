// Rewinding a session to before one of its prompts: the files (through the session's FileCheckpoints), the
// conversation (by moving its leaf), or both. Files the user changed after the agent are only overwritten when
// the user says so; otherwise they are kept and the rest is restored.
import { describePaths, type FileChange, type FileCheckpoints, type FilesRestore, type RestoreReport } from "./file-checkpoints.js";
import type { SessionUi } from "./session-ui.js";

/** What goes back. */
export interface RewindScope {
	files: boolean;
	conversation: boolean;
}

export interface RewindResult {
	/** The prompt rewound to (an interface may offer its text again, e.g. in the editor). */
	promptText: string;
	/** The conversation went back to before the prompt. */
	conversation: boolean;
	/** The files restore: what it was to do and what it did. */
	files?: { restore: FilesRestore; report: RestoreReport };
	/** Why the files were not restored (no checkpoint, checkpoints off). */
	filesProblem?: string;
}

/** The restore of the files to before the prompt, worked out and not done (what a preview shows); a string says why none. */
export async function prepareRestore(checkpoints: FileCheckpoints | undefined, promptEntryId: string): Promise<FilesRestore | string> {
	if (!checkpoints) return "Checkpoints of the files are off in this session, so only the conversation can go back.";
	return checkpoints.prepare(promptEntryId);
}

/**
 * Restores the files to before the prompt: `prepared` when given (the restore a preview showed), else one worked
 * out now. When some of them were changed after the agent by someone else, the user is asked (once, naming them)
 * whether to overwrite them; without a yes they are kept as they are.
 */
export async function restoreFiles(
	checkpoints: FileCheckpoints | undefined,
	promptEntryId: string,
	ui: SessionUi,
	prepared?: FilesRestore,
): Promise<{ restore: FilesRestore; report: RestoreReport } | string> {
	const restore = prepared ?? (await prepareRestore(checkpoints, promptEntryId));
	if (typeof restore === "string") return restore;
	let keep: readonly string[] = [];
	if (restore.userChanged.length > 0) {
		const overwrite = await ui.confirm(
			"Overwrite your changes?",
			`These files were changed after the agent's last run, not by the agent: ${describePaths(restore.userChanged)}. ` +
				"Restoring overwrites them. Yes: restore them too. No: keep your versions and restore the other files.",
		);
		if (!overwrite) keep = restore.userChanged;
	}
	return { restore, report: await restore.apply({ keep }) };
}

/** What a restore would do, one line per kind of change, for a preview shown before the user chooses. */
export function describeRestorePlan(restore: FilesRestore): string[] {
	const paths = (action: FileChange["action"]) => restore.changes.filter((change) => change.action === action).map((change) => change.path);
	const lines = [
		paths("restore").length > 0 && `restores ${describePaths(paths("restore"))}`,
		paths("recreate").length > 0 && `recreates ${describePaths(paths("recreate"))}`,
		paths("delete").length > 0 && `deletes ${describePaths(paths("delete"))} (created by the agent)`,
		restore.userChanged.length > 0 && `asks first about ${describePaths(restore.userChanged)} (changed after the agent, not by it)`,
		restore.notRestored.length > 0 && `leaves ${describePaths(restore.notRestored.map((file) => file.path))} as they are (not recorded, or not the agent's)`,
	].filter((line): line is string => typeof line === "string");
	if (restore.changes.length === 0) lines.unshift("nothing to restore: the files are as they were then");
	if (restore.note) lines.push(restore.note);
	return lines;
}

/** A notice saying what a rewind did. */
export function describeRewind(result: RewindResult): { level: "info" | "warning"; text: string } {
	const lines: string[] = [];
	let level: "info" | "warning" = "info";
	if (result.files) {
		const { restore, report } = result.files;
		const done = [
			report.restored.length > 0 && `${report.restored.length} restored`,
			report.recreated.length > 0 && `${report.recreated.length} recreated`,
			report.deleted.length > 0 && `${report.deleted.length} deleted`,
		].filter(Boolean);
		lines.push(done.length > 0 ? `Files: ${done.join(", ")} (${describePaths([...report.restored, ...report.recreated, ...report.deleted])}).` : "Files: nothing to restore.");
		if (restore.note) lines.push(restore.note);
		if (report.kept.length > 0) lines.push(`Kept as you left them: ${describePaths(report.kept)}.`);
		if (restore.notRestored.length > 0) {
			level = "warning";
			lines.push(`Not restored: ${restore.notRestored.map((file) => `${file.path} (${file.reason})`).slice(0, 8).join("; ")}.`);
		}
		if (report.failed.length > 0) {
			level = "warning";
			lines.push(`Could not restore: ${report.failed.map((failure) => `${failure.path}: ${failure.error}`).join("; ")}.`);
		}
	} else if (result.filesProblem) {
		level = "warning";
		lines.push(result.filesProblem);
	}
	if (result.conversation) lines.push("Conversation: back to before that prompt; the later messages stay in the session file (/tree switches back).");
	return { level, text: lines.join("\n") };
}
