// How a project's server is named where the user decides whether to run it: the trust question and print
// mode's "skipped" note. A stdio server shows the whole command line it would run (`npx` alone says nothing).
import { stripToOneLine } from "../../core/index.js";
import { PROJECT_CONFIG_FILE } from "./config-sources.js";
import type { McpServerSpec } from "./mcp-config.js";

/** A word longer than this keeps its end (a path's file name): `…/server-everything/dist/index.js`. */
const WORD_LIMIT = 48;
/** The whole command line is cut here. */
const LINE_LIMIT = 160;

/**
 * `.mcp.json server <name>: <command line>` or `: <host>` for a remote server; `mask` hides the credentials the
 * arguments hold (`--token ghp_…`), the session's secret mask.
 */
export function projectServerLabel(name: string, spec: McpServerSpec | undefined, mask: (text: string) => string = (text) => text): string {
	const target = !spec ? "" : spec.transport === "stdio" ? `: ${commandLine(spec.command, spec.args, mask)}` : `: ${hostOf(spec.url)}`;
	return `${PROJECT_CONFIG_FILE} server ${name}${target}`;
}

/** The command and its arguments on one row: masked, escapes stripped, words quoted as a shell would need, long ones cut. */
export function commandLine(command: string, args: readonly string[], mask: (text: string) => string = (text) => text): string {
	const line = [command, ...args].map((word) => shownWord(mask(word))).join(" ");
	return line.length > LINE_LIMIT ? `${line.slice(0, LINE_LIMIT - 1)}…` : line;
}

function shownWord(word: string): string {
	const clean = stripToOneLine(word);
	const short = clean.length > WORD_LIMIT ? `…${clean.slice(-(WORD_LIMIT - 1))}` : clean;
	return short === "" || /[\s'"\\$`;&|<>()*?!#~]/.test(short) ? `'${short.replace(/'/g, "'\\''")}'` : short;
}

function hostOf(url: string): string {
	try {
		return new URL(url).host;
	} catch {
		return url;
	}
}
