// Files whose contents run later without anyone approving them: loom's own settings (hooks), extensions and MCP
// servers (`.loom/`, project or home; `.mcp.json`), git's hooks and configuration (`.git/`, `.husky/`), and shell
// startup files. A rule with a glob (`write(*.js)`, `edit(src/**)`) never allows changing one.
import { basename, sep } from "node:path";

const FOLDERS = new Set([".loom", ".git", ".husky"]);
const FILES = new Set([".mcp.json", ".envrc", ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin"]);

/** `path` (absolute) is such a file, or lies in such a folder. */
export function runsLater(path: string): boolean {
	const parts = path.split(sep);
	return FILES.has(basename(path)) || parts.slice(0, -1).some((part) => FOLDERS.has(part)) || parts.at(-1) === ".git";
}
