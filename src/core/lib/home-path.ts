// `~` in a path a person typed: shells expand it only in some positions, so loom does it where paths come in.
import { homedir } from "node:os";
import { join } from "node:path";

/** `~` and `~/…` become the home directory and paths under it; any other path is returned unchanged. */
export function expandHome(path: string, home: string = homedir()): string {
	if (path === "~") return home;
	if (path.startsWith("~/")) return join(home, path.slice(2));
	return path;
}
