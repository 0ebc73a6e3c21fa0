import { describe, expect, it } from "vitest";
import { sendableEarly } from "../../src/cli/early-prompt.js";

describe("sendableEarly", () => {
	it("takes a plain prompt as typed, spaces and all", () => {
		expect(sendableEarly("hi")).toBe(true);
		expect(sendableEarly("  explain this repo ")).toBe(true);
		expect(sendableEarly("naïve €")).toBe(true);
	});

	it("leaves to the editor what it does more with than send: commands, shell, files, a newline asked for, keys", () => {
		for (const line of ["", "   ", "/help", " /model", "!ls", "read @README.md", "first line\\", "a\u001b[Ab", "a\u0008b", "tab\there", "del\u007f"]) {
			expect(sendableEarly(line), JSON.stringify(line)).toBe(false);
		}
	});
});
