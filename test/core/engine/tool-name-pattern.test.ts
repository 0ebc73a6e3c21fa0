// The one rule for tool names (what every provider accepts) and how a pattern names tools.
import { describe, expect, it } from "vitest";
import { isValidToolName, matchesToolPattern, toolNameCharacters } from "../../../src/core/engine/tool-name-pattern.js";

describe("tool names", () => {
	it("accepts letters, digits, _ and -, from 1 to 64 characters", () => {
		expect(isValidToolName("mcp__github__create-issue_2")).toBe(true);
		expect(isValidToolName("x".repeat(64))).toBe(true);
		expect(isValidToolName("x".repeat(65))).toBe(false);
		expect(isValidToolName("")).toBe(false);
		expect(isValidToolName("has space")).toBe(false);
		expect(isValidToolName("dotted.name")).toBe(false);
	});

	it("turns any other character into _", () => {
		expect(toolNameCharacters("my server.io/é")).toBe("my_server_io__");
	});

	it("a pattern's * stands for any characters; everything else for itself", () => {
		expect(matchesToolPattern("mcp__github__*", "mcp__github__list")).toBe(true);
		expect(matchesToolPattern("mcp__github__*", "mcp__gitlab__list")).toBe(false);
		expect(matchesToolPattern("a.b", "axb")).toBe(false);
	});
});
