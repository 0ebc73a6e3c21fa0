// Names in a project whose contents run later without anyone approving them: loom's own settings (hooks),
// extensions and MCP servers (`.loom/`, `.mcp.json`), Claude Code's settings (hooks loom runs too), VS Code's tasks
// (`.vscode/`), git's hooks and configuration (`.git/`, `.husky/`), direnv's and the shells' startup files. The
// approval policy never lets a glob rule allow changing one, the web-taint brake asks before it, and the sandbox keeps
// them read-only inside writable roots. Names are compared without case: on a case-insensitive file system (macOS,
// Windows) `.MCP.json` is `.mcp.json`.
import { sep } from "node:path";

const FOLDERS = [".loom", ".git", ".husky", ".claude", ".vscode"] as const;
const FILES = [".mcp.json", ".envrc", ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin"] as const;

/** Every such name, folders first. */
export const RUNS_LATER_NAMES: readonly string[] = [...FOLDERS, ...FILES];

const FOLDER_SET = new Set<string>(FOLDERS);
const FILE_SET = new Set<string>(FILES);

/** `path` is such a file, or lies in such a folder; with `orFolder`, or is such a folder (a copy's destination). */
export function runsLater(path: string, orFolder = false): boolean {
	const parts = path.toLowerCase().split(sep);
	const last = parts.at(-1) ?? "";
	return FILE_SET.has(last) || parts.slice(0, -1).some((part) => FOLDER_SET.has(part)) || last === ".git" || (orFolder && FOLDER_SET.has(last));
}
