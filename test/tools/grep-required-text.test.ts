// The piece of text grep's first pass looks for: one every matching line must contain, or none.
import { describe, expect, it } from "vitest";
import { requiredText } from "../../src/tools/grep-match.js";

describe("the text every match must contain", () => {
	it("is the pattern itself for literal text", () => {
		expect(requiredText("a.b(c", { literal: true })).toBe("a.b(c");
		expect(requiredText("plain words", {})).toBe("plain words");
	});

	it("is the longest piece a regex always matches, leaving out what is optional", () => {
		expect(requiredText("needle_\\d+ =", {})).toBe("needle_");
		expect(requiredText("(const )?needle_[0-9]", {})).toBe("needle_");
		expect(requiredText("colou?r value", {})).toBe("r value");
		expect(requiredText("ab+c", {})).toBe("ab");
		expect(requiredText("^export function \\w+", {})).toBe("export function ");
		expect(requiredText("x{2}yz", {})).toBe("yz");
	});

	it("is none where an alternation, an escape of a code point or nothing plain leaves no such piece", () => {
		expect(requiredText("foo|bar", {})).toBeUndefined();
		expect(requiredText("\\x41pple", {})).toBeUndefined();
		expect(requiredText("\\d+\\s*", {})).toBeUndefined();
		expect(requiredText("é+", { ignoreCase: true })).toBeUndefined();
		expect(requiredText("(a|b)tail", {})).toBe("tail");
	});
});
