// Files whose contents run later without anyone approving them: loom's own settings (hooks), extensions and MCP
// servers (`.loom/`, project or home; `.mcp.json`), Claude Code's settings (hooks loom runs too), VS Code's tasks
// (`.vscode/`), git's hooks and configuration (`.git/`, `.husky/`), and shell startup files. A rule with a glob
// (`write(*.js)`, `edit(src/**)`) never allows changing one. Names are compared without case: on a
// case-insensitive file system (macOS, Windows) `.MCP.json` is `.mcp.json`.
import { sep } from "node:path";

const FOLDERS = new Set([".loom", ".git", ".husky", ".claude", ".vscode"]);
const FILES = new Set([".mcp.json", ".envrc", ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin"]);

/** `path` (absolute) is such a file, or lies in such a folder; with `orFolder`, or is such a folder (a copy's destination). */
export function runsLater(path: string, orFolder = false): boolean {
	const parts = path.toLowerCase().split(sep);
	const last = parts.at(-1) ?? "";
	return FILES.has(last) || parts.slice(0, -1).some((part) => FOLDERS.has(part)) || last === ".git" || (orFolder && FOLDERS.has(last));
}
