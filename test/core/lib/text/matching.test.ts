// Matching typed text: put into a regular expression it matches itself and nothing else, whatever characters it
// holds; a near miss of a known name is taken for that name, anything farther for none.
import { describe, expect, it } from "vitest";
import { closestName, editDistance, escapeRegex } from "../../../../src/core/lib/text/matching.js";

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

describe("closestName", () => {
	it("names the known name a typo most likely meant, case ignored", () => {
		expect(editDistance("denny", "deny")).toBe(1);
		expect(closestName("denny", ["allow", "deny", "ask"])).toBe("deny");
		expect(closestName("DENY", ["allow", "deny"])).toBe("deny");
	});

	it("names none when every known name is farther than a third of the typed length", () => {
		expect(closestName("xyz", ["allow", "deny"])).toBeUndefined();
	});
});
