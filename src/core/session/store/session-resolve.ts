// Finds the session file a user means: a path, or a prefix of a session id (--session).
import { existsSync } from "node:fs";
import { isAbsolute, join, resolve, sep } from "node:path";
import { directoryNames } from "../../lib/index.js";
import { SessionFileError } from "./session-entries.js";
import { cwdFolderName, sessionIdFromFileName, sessionsRoot } from "./session-paths.js";

/**
 * A path (anything with a separator, ending in .jsonl, or naming an existing file) is taken as is.
 * Otherwise the argument is an id prefix, looked up by file name in the cwd's sessions first, then in all others.
 */
export function resolveSessionArgument(arg: string, home: string, cwd: string): string {
	const trimmed = arg.trim();
	if (trimmed === "") throw new SessionFileError("--session needs a session file path or an id prefix.");
	const asPath = isAbsolute(trimmed) ? trimmed : resolve(cwd, trimmed);
	if (trimmed.includes("/") || trimmed.includes(sep) || trimmed.endsWith(".jsonl") || existsSync(asPath)) {
		if (!existsSync(asPath)) throw new SessionFileError(`No session file at ${asPath}.`);
		return asPath;
	}
	const root = sessionsRoot(home);
	const own = cwdFolderName(cwd);
	const folders = [own, ...directoryNames(root).filter((name) => name !== own)];
	for (const folder of folders) {
		const matches = directoryNames(join(root, folder)).filter((name) => sessionIdFromFileName(name)?.startsWith(trimmed));
		if (matches.length === 1) return join(root, folder, matches[0]!);
		if (matches.length > 1) {
			const ids = matches.map((name) => `  ${sessionIdFromFileName(name)}`).join("\n");
			throw new SessionFileError(`Session id prefix "${trimmed}" is ambiguous; it matches:\n${ids}\nGive more characters.`);
		}
	}
	throw new SessionFileError(
		`No session with an id starting with "${trimmed}" under ${root}. Run \`loom -r\` to list this directory's sessions.`,
	);
}
