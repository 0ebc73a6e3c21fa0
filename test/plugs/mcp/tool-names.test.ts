// mcp__<server>__<tool> in the characters and length every provider accepts; --tools patterns over them.
import { describe, expect, it } from "vitest";
import { matchesToolPattern, toolNameCharacters } from "../../../src/core/engine/tool-definition.js";
import { mcpToolName, patternMayNameServer } from "../../../src/plugs/mcp/tool-names.js";

describe("mcpToolName", () => {
	it("joins server and tool as Claude Code does, other characters becoming _", () => {
		expect(mcpToolName("github", "create_issue")).toBe("mcp__github__create_issue");
		expect(mcpToolName("my server.io", "get-sum")).toBe("mcp__my_server_io__get-sum");
		expect(toolNameCharacters("é/ü:1")).toBe("____1");
	});

	it("keeps a long name within 64 characters, two long names apart", () => {
		const a = mcpToolName("server", `${"x".repeat(80)}a`);
		const b = mcpToolName("server", `${"x".repeat(80)}b`);
		expect(a).toHaveLength(64);
		expect(b).toHaveLength(64);
		expect(a).not.toBe(b);
		expect(a).toMatch(/^mcp__server__x+_[0-9a-f]{8}$/);
	});

	it("gives a name already taken a numbered suffix", () => {
		expect(mcpToolName("a.b", "t", new Set(["mcp__a_b__t"]))).toBe("mcp__a_b__t_2");
		expect(mcpToolName("a.b", "t", new Set(["mcp__a_b__t", "mcp__a_b__t_2"]))).toBe("mcp__a_b__t_3");
	});
});

describe("--tools patterns", () => {
	it("matches * as any characters and the rest literally", () => {
		expect(matchesToolPattern("mcp__github__*", "mcp__github__create_issue")).toBe(true);
		expect(matchesToolPattern("mcp__github__*", "mcp__gitlab__x")).toBe(false);
		expect(matchesToolPattern("mcp__*__read*", "mcp__fs__read_file")).toBe(true);
		expect(matchesToolPattern("read", "read")).toBe(true);
		expect(matchesToolPattern("re.d", "read")).toBe(false);
	});

	it("tells which servers a name or pattern may name, before their tools are known", () => {
		expect(patternMayNameServer("mcp__github__create_issue", "github")).toBe(true);
		expect(patternMayNameServer("mcp__github__*", "github")).toBe(true);
		expect(patternMayNameServer("mcp__*", "github")).toBe(true);
		expect(patternMayNameServer("*", "github")).toBe(true);
		expect(patternMayNameServer("mcp__github__", "github")).toBe(false);
		expect(patternMayNameServer("mcp__gitlab__*", "github")).toBe(false);
		expect(patternMayNameServer("read", "github")).toBe(false);
		expect(patternMayNameServer("mcp__my_server__*", "my server")).toBe(true);
	});
});
