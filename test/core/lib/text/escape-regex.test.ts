// Text put into a regular expression matches itself and nothing else, whatever characters it holds.
import { describe, expect, it } from "vitest";
import { escapeRegex } from "../../../../src/core/lib/text/escape-regex.js";

describe("escapeRegex", () => {
	it("makes every regex character match itself", () => {
		const text = "a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o/p";
		expect(new RegExp(`^${escapeRegex(text)}$`).test(text)).toBe(true);
		expect(new RegExp(`^${escapeRegex(text)}$`, "s").test(text.replace(".", "x"))).toBe(false);
	});

	it("leaves plain text as it is", () => {
		expect(escapeRegex("mcp__github__list-issues")).toBe("mcp__github__list-issues");
	});
});
