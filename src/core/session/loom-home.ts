// Where loom keeps its configuration, models.json and sessions.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { expandHome } from "../home-path.js";

/** `$LOOM_HOME` when set (resolved to an absolute path), otherwise `~/.loom`. */
export function loomHome(env: NodeJS.ProcessEnv = process.env): string {
	const fromEnv = env.LOOM_HOME?.trim();
	if (!fromEnv) return join(homedir(), ".loom");
	// A "~" the shell did not expand would otherwise become a directory named "~" inside the project.
	return resolve(expandHome(fromEnv));
}
