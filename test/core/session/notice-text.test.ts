import { describe, expect, it } from "vitest";
import { NOTICE_MARK, plainNotice, stderrLine, stderrNotice } from "../../../src/core/session/notice-text.js";

describe("notice text", () => {
	it("marks each level for the screen", () => {
		expect(NOTICE_MARK).toEqual({ info: "·", warning: "!", error: "✗" });
	});

	it("names the level in plain text, except for information", () => {
		expect(plainNotice("info", "Model: a/b")).toBe("Model: a/b");
		expect(plainNotice("warning", "slow")).toBe("warning: slow");
		expect(plainNotice("error", "failed")).toBe("error: failed");
	});

	it("writes a line on stderr as loom's, without the text's escape sequences but with its tabs", () => {
		expect(stderrLine("bad\u001b]0;title\u0007 file\tname")).toBe("loom: bad file\tname\n");
		expect(stderrNotice("warning", "settings.json: \u001b[31mred\u001b[0m")).toBe("loom: warning: settings.json: red\n");
		expect(stderrNotice("info", "connected")).toBe("loom: connected\n");
	});
});
