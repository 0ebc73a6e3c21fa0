// A forked session shares its parent's prompts (entry ids are copied), so its checkpoints include the parent's:
// the runs of a session and of every session it was forked from, in the order they started.
import { closeSync } from "node:fs";
import { isSessionId, openRegularFile, readAt, type RegularFile, sessionIdFromFileName } from "../../core/index.js";
import { type RunRecord, logPath, readLog } from "./checkpoint-log.js";

/** A header line is a few hundred bytes; more is not read. */
const HEADER_BYTES = 16 * 1024;
/** Forks of forks are followed this far at most (a loop in hand-edited headers must end). */
const MAX_DEPTH = 32;

export function lineageRuns(projectDir: string, session: { id: string; parentFile?: string }): RunRecord[] {
	const ids = [session.id];
	let parent = session.parentFile;
	while (parent && ids.length < MAX_DEPTH) {
		const header = readHeader(parent);
		const id = sessionIdFromFileName(parent) ?? header?.id;
		// A hand-edited header's id names a log file: one that is no session id ends the lineage.
		if (!isSessionId(id) || ids.includes(id)) break;
		ids.push(id);
		parent = header?.parentSession;
	}
	const runs = ids.flatMap((id) => readLog(logPath(projectDir, id))?.runs ?? []);
	return runs.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** The first line of a session file, when it is a JSON object (a bounded read of a regular file only). */
function readHeader(file: string): { id?: string; parentSession?: string } | undefined {
	let opened: RegularFile | undefined;
	try {
		opened = openRegularFile(file);
		const text = readAt(opened.fd, 0, HEADER_BYTES).toString("utf8");
		const end = text.indexOf("\n");
		const value = JSON.parse(end === -1 ? text : text.slice(0, end));
		return value && typeof value === "object" ? value : undefined;
	} catch {
		return undefined;
	} finally {
		if (opened) closeSync(opened.fd);
	}
}
