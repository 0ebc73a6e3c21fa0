import { stripVTControlCharacters as strip } from "node:util";
import { describe, expect, it } from "vitest";
import { pendingCallText, thinkingRows } from "../../../src/tui/screen/live-rows.js";

describe("live rows", () => {
	it("shows the last rows of the thinking after its mark, without the model's escapes", () => {
		const thinking = `  first thought\nsecond \u001b]0;title\u0007thought\nthird thought  `;
		expect(thinkingRows(thinking, 40, 5).map(strip)).toEqual(["✻ first thought", "second thought", "third thought"]);
		expect(thinkingRows(thinking, 40, 3).map(strip)).toEqual(["✻ first thought", "second thought", "third thought"]);
	});

	it("keeps the mark in view when the thinking is cut at the top, so its rows never read as the answer", () => {
		const thinking = "first thought\nsecond thought\nthird thought";
		expect(thinkingRows(thinking, 40, 2).map(strip)).toEqual(["✻ Thinking…", "third thought"]);
		expect(thinkingRows(thinking, 40, 1).map(strip)).toEqual(["✻ Thinking…"]);
		expect(thinkingRows(thinking, 6, 1).every((row) => strip(row).length <= 6)).toBe(true);
	});

	it("shows no thinking rows without room or without thinking", () => {
		expect(thinkingRows("a thought", 40, 0)).toEqual([]);
		expect(thinkingRows("  \n ", 40, 3)).toEqual([]);
	});

	it("names the call being written, its size once it has one, its name's controls written out", () => {
		expect(pendingCallText({ name: "bash", chars: 0 })).toBe("bash call being written");
		expect(pendingCallText({ name: "edit", chars: 2048 })).toBe("edit call being written (2.0 KB)");
		expect(pendingCallText({ name: "x\u001b[2J", chars: 0 })).toBe("x\\x1b[2J call being written");
	});
});
