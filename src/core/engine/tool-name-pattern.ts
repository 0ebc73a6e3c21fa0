// Tool names: what a name may be (the characters and length every provider accepts: letters, digits, `_` and
// `-`, at most 64), and how a pattern names tools (--tools, approval rules): `*` stands for any run of
// characters, everything else for itself, so `mcp__github__*` names every tool of that server.
import { escapeRegex } from "../lib/index.js";

/** The longest tool name every provider accepts. */
export const MAX_TOOL_NAME_LENGTH = 64;

/** How a valid name is described to whoever gave one that is not. */
export const TOOL_NAME_RULE = `letters, digits, _ or - (at most ${MAX_TOOL_NAME_LENGTH})`;

const VALID_NAME = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_TOOL_NAME_LENGTH}}$`);

export function isValidToolName(name: string): boolean {
	return VALID_NAME.test(name);
}

/** `text` in the characters a tool name may hold: any other becomes `_` (the length is the caller's to fit). */
export function toolNameCharacters(text: string): string {
	return text.replace(/[^A-Za-z0-9_-]/g, "_");
}

export function toolNamePattern(pattern: string): RegExp {
	return new RegExp(`^${pattern.split("*").map(escapeRegex).join(".*")}$`);
}

export function matchesToolPattern(pattern: string, name: string): boolean {
	return pattern.includes("*") ? toolNamePattern(pattern).test(name) : pattern === name;
}
