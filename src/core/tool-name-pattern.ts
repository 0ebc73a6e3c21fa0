// How a tool is named by a pattern (--tools, approval rules): `*` stands for any run of characters, everything
// else for itself, so `mcp__github__*` names every tool of that server.
import { escapeRegex } from "./text/escape-regex.js";

export function toolNamePattern(pattern: string): RegExp {
	return new RegExp(`^${pattern.split("*").map(escapeRegex).join(".*")}$`);
}

export function matchesToolPattern(pattern: string, name: string): boolean {
	return pattern.includes("*") ? toolNamePattern(pattern).test(name) : pattern === name;
}
