// Writing a session's conversation as an HTML page: /export [file] from a running session, and
// `loom --export <session> [file]` from a session file. The page is built only when asked (marked loads then).
import { dirname, resolve } from "node:path";
import { expandHome, sessionChain, loadSessionFile, sessionTree, atomicWriteFile, subagentLink, subagentSessionsDir } from "../../core/index.js";
import type { AgentSession, SessionEntry, SessionHeader, NamedToolPresentation } from "../../core/index.js";

export interface ExportSource {
	header: SessionHeader;
	entries: readonly SessionEntry[];
	tools?: readonly NamedToolPresentation[];
	/** Branches of the session besides the one exported (the page says so). */
	otherBranches?: number;
	/** The session's file: its subagents' files are read only from the folder beside it. */
	file?: string;
}

/** A subagent's conversation, and its own subagents'. */
interface ChildConversation {
	entries: readonly SessionEntry[];
	children: ReadonlyMap<string, ChildConversation>;
}

/** How deep the page follows subagents' session files. */
const MAX_CHILD_DEPTH = 4;

/**
 * The conversations of the subagents the entries' task calls started, by call id, read from their session files; a
 * file that cannot be read leaves its call with the link only.
 */
/**
 * The conversations of the subagents `entries` link to, read only from `file`'s subagents folder: a session file
 * naming another path (another session, any file) gets its link's line, never that file's contents on the page.
 */
async function subagentConversations(entries: readonly SessionEntry[], file: string | undefined, depth = 0): Promise<Map<string, ChildConversation>> {
	const children = new Map<string, ChildConversation>();
	if (depth >= MAX_CHILD_DEPTH || file === undefined) return children;
	const folder = resolve(subagentSessionsDir(file));
	for (const entry of entries) {
		if (entry.type !== "message") continue;
		const link = subagentLink(entry.message);
		if (!link?.sessionFile || entry.message.role !== "toolResult") continue;
		const childFile = resolve(dirname(file), link.sessionFile);
		if (dirname(childFile) !== folder) continue;
		try {
			const loaded = await loadSessionFile(childFile);
			const chain = sessionChain(loaded.entries).entries;
			children.set(entry.message.toolCallId, { entries: chain, children: await subagentConversations(chain, childFile, depth + 1) });
		} catch {
			// Its file is gone or unreadable: the call keeps the link's line.
		}
	}
	return children;
}

/** "loom-session-<first 8 characters of the id>.html" in `dir`. */
export function defaultExportFile(dir: string, sessionId: string): string {
	return resolve(dir, `loom-session-${sessionId.slice(0, 8)}.html`);
}

/** Writes the page (atomically, keeping an existing file's identity); returns the absolute path written. */
export async function writeSessionHtml(file: string, source: ExportSource): Promise<string> {
	const [{ renderSessionHtml }, children] = await Promise.all([import("./session-html.js"), subagentConversations(source.entries, source.file)]);
	await atomicWriteFile(file, renderSessionHtml({ ...source, children }));
	return file;
}

/**
 * Exports the conversation of a session file (its current branch; the page says how many others it holds), read
 * without locking it: it may be open in another loom. `target` defaults to loom-session-<id>.html in `cwd`.
 */
export async function exportSessionFile(sessionFile: string, target: string | undefined, options: { cwd: string; tools?: readonly NamedToolPresentation[] }): Promise<string> {
	const loaded = await loadSessionFile(sessionFile);
	const entries = sessionChain(loaded.entries).entries;
	const otherBranches = sessionTree(loaded.entries, loaded.entries.at(-1)?.id ?? null).branches - 1;
	const file = target ? resolve(options.cwd, expandHome(target)) : defaultExportFile(options.cwd, loaded.header.id);
	return writeSessionHtml(file, { header: loaded.header, entries, tools: options.tools, otherBranches, file: sessionFile });
}

/** Registers /export [file] on a session. */
export function installExport(session: AgentSession): void {
	session.commands.register({
		name: "export",
		argsHint: "[file]",
		description: "write the conversation as an HTML page (default: loom-session-<id>.html here)",
		source: "builtin",
		async handler(args, ctx) {
			if (session.messageCount === 0) return ctx.notify("info", "Nothing to export yet: the conversation has no messages.");
			const file = args === "" ? defaultExportFile(session.cwd, session.sessionId) : resolve(session.cwd, expandHome(args));
			await writeSessionHtml(file, { header: session.sessionHeader, entries: session.entries, tools: session.tools, otherBranches: session.tree().branches - 1, file: session.sessionFile });
			ctx.notify("info", `Exported the conversation to ${file}`);
		},
	});
}
