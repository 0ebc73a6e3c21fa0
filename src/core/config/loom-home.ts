// Where loom keeps its configuration, models.json and sessions.
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { expandHome } from "../lib/index.js";

/** `$LOOM_HOME` when set (resolved to an absolute path), otherwise `~/.loom`. */
export function loomHome(env: NodeJS.ProcessEnv = process.env): string {
	const fromEnv = loomHomeVariable(env);
	if (!fromEnv) return join(homedir(), ".loom");
	// A "~" the shell did not expand would otherwise become a directory named "~" inside the project.
	return resolve(expandHome(fromEnv));
}

function loomHomeVariable(env: NodeJS.ProcessEnv): string | undefined {
	return env.LOOM_HOME?.trim() || undefined;
}

/**
 * Why loomHome(env) cannot be loom's home: it is a file, or lies inside one. Undefined when it is a folder or does
 * not exist yet (loom creates it); other failures are left to the reads that meet them.
 */
export function loomHomeProblem(env: NodeJS.ProcessEnv = process.env): string | undefined {
	const home = loomHome(env);
	let what: string;
	try {
		if (statSync(home).isDirectory()) return undefined;
		what = "is a file";
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOTDIR") return undefined;
		what = "lies inside a file";
	}
	const fromEnv = loomHomeVariable(env);
	return fromEnv
		? `LOOM_HOME=${fromEnv} ${what}, not a folder: point it at a folder or unset it.`
		: `${home} ${what}, not a folder: loom keeps its settings and sessions there; move the file away, or set LOOM_HOME to a folder.`;
}
