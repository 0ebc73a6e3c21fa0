// Names of MCP tools as the model and the user see them: `mcp__<server>__<tool>`, in the characters and length
// every provider accepts (core/tool-name-pattern.ts), so `--tools`, approval rules and the
// model all name a server's tools the same way Claude Code does.
import { createHash } from "node:crypto";
import { MAX_TOOL_NAME_LENGTH, toolNameCharacters } from "../../core/index.js";

const MCP_TOOL_PREFIX = "mcp__";

/** What every tool name of `server` starts with. */
export function serverToolPrefix(server: string): string {
	return `${MCP_TOOL_PREFIX}${toolNameCharacters(server)}__`;
}

/**
 * `mcp__<server>__<tool>`. A name over the length limit keeps its start and ends with a short hash of the whole,
 * so two long names stay apart; `taken` names get a numbered suffix the same way.
 */
export function mcpToolName(server: string, tool: string, taken: ReadonlySet<string> = new Set()): string {
	const full = `${serverToolPrefix(server)}${toolNameCharacters(tool)}`;
	let name = fit(full, "");
	for (let n = 2; taken.has(name); n++) name = fit(full, `_${n}`);
	return name;
}

function fit(name: string, suffix: string): string {
	if (name.length + suffix.length <= MAX_TOOL_NAME_LENGTH) return `${name}${suffix}`;
	const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
	return `${name.slice(0, MAX_TOOL_NAME_LENGTH - hash.length - 1 - suffix.length)}_${hash}${suffix}`;
}

/** Whether `pattern` may name tools of `server` (their names are not known until it has started). */
export function patternMayNameServer(pattern: string, server: string): boolean {
	const prefix = serverToolPrefix(server);
	const star = pattern.indexOf("*");
	if (star === -1) return pattern.startsWith(prefix) && pattern.length > prefix.length;
	const fixed = pattern.slice(0, star);
	return prefix.startsWith(fixed) || fixed.startsWith(prefix);
}
