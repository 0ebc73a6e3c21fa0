// Where skills and prompt templates live, in the order they are loaded: the user's before the project's (a
// cloned repository cannot take over a command or skill the user relies on), loom's own folders before those
// read for compatibility with Claude Code. The first of two with the same name wins; the later one is reported.
import { basename, join, sep } from "node:path";
import { readCheckedText, directoryNames, realpathOrSelf, errorMessage } from "../../core/index.js";
import type { CommandScope } from "../../core/index.js";

export interface ResourceLocations {
	cwd: string;
	/** loom's home (~/.loom or $LOOM_HOME). */
	home: string;
	/** The user's home directory, where ~/.claude lives. */
	userHome: string;
}

/** A SKILL.md or prompt template larger than this is refused: instructions, not data. */
const MAX_RESOURCE_BYTES = 256 * 1024;

interface Folders {
	user: string[];
	project: string[];
}

function skillFolders({ cwd, home, userHome }: ResourceLocations): Folders {
	return { user: [join(home, "skills"), join(userHome, ".claude", "skills")], project: [join(cwd, ".loom", "skills"), join(cwd, ".claude", "skills")] };
}

function promptFolders({ cwd, home, userHome }: ResourceLocations): Folders {
	return { user: [join(home, "prompts"), join(userHome, ".claude", "commands")], project: [join(cwd, ".loom", "prompts"), join(cwd, ".claude", "commands")] };
}

export function skillDirs(locations: ResourceLocations): string[] {
	const { user, project } = skillFolders(locations);
	return distinct([...user, ...project]);
}

export function promptDirs(locations: ResourceLocations): string[] {
	const { user, project } = promptFolders(locations);
	return distinct([...user, ...project]);
}

/**
 * Whose a skill or template found through skillDirs or promptDirs is: the project's when its folder is one of the
 * project's and not also one of the user's (loom run in the home directory), else the user's.
 */
export function resourceScope(path: string, locations: ResourceLocations): CommandScope {
	const folders = [skillFolders(locations), promptFolders(locations)];
	const within = (folder: string) => path.startsWith(`${folder}${sep}`);
	if (folders.some(({ user }) => user.some(within))) return "user";
	return folders.some(({ project }) => project.some(within)) ? "project" : "user";
}

/** The same folder reached twice (the project is the home directory, a link) is read once. */
function distinct(dirs: string[]): string[] {
	const seen = new Set<string>();
	return dirs.filter((dir) => {
		const real = realpathOrSelf(dir);
		if (seen.has(real)) return false;
		seen.add(real);
		return true;
	});
}

/** Names in a folder, sorted; none when it does not exist or cannot be read (no such folder is no error). */
export function folderEntries(dir: string): string[] {
	return directoryNames(dir).sort();
}

/** A resource file's text, checked and bounded; its errors name the file by its name (the caller gives the path). */
export function readResource(path: string): string {
	return readCheckedText(path, { maxBytes: MAX_RESOURCE_BYTES, label: basename(path) });
}

/** "<path>: <what is wrong>; the <kind> is skipped." */
export function skippedProblem(path: string, error: unknown, kind: string): string {
	return `${path}: ${errorMessage(error).replace(/\.$/, "")}; the ${kind} is skipped.`;
}
