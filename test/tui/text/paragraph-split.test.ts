import { describe, expect, it } from "vitest";
import { openFenceLine, splitFinished } from "../../../src/tui/text/paragraph-split.js";

function feed(chunks: string[]) {
	let state: { tail: string; scanned: number; openFence?: string } = { tail: "", scanned: 0 };
	const finished: string[] = [];
	for (const chunk of chunks) {
		const result = splitFinished({ ...state, tail: state.tail + chunk });
		if (result.finished) finished.push(result.finished);
		state = result;
	}
	return { finished, tail: state.tail };
}

describe("splitFinished", () => {
	it("cuts at the last blank line and keeps the rest", () => {
		expect(feed(["a\n\nb\n\nc"])).toEqual({ finished: ["a\n\nb\n\n"], tail: "c" });
	});

	it("does not cut on a line that is not complete yet", () => {
		expect(feed(["a\n", " "])).toEqual({ finished: [], tail: "a\n " });
		expect(feed(["a\n", " ", "\nb"])).toEqual({ finished: ["a\n \n"], tail: "b" });
	});

	it("never cuts inside a fenced code block, whatever the chunking", () => {
		const text = "intro\n\n~~~~\ncode\n\n```\nstill code\n~~~~\n\nafter";
		const whole = feed([text]);
		const charByChar = feed([...text]);
		expect(whole).toEqual({ finished: ["intro\n\n~~~~\ncode\n\n```\nstill code\n~~~~\n\n"], tail: "after" });
		expect(charByChar.finished.join("")).toBe("intro\n\n~~~~\ncode\n\n```\nstill code\n~~~~\n\n");
		// Char by char, the closing fence finishes the block before the blank line after it arrives.
		expect(charByChar.finished).toEqual(["intro\n\n", "~~~~\ncode\n\n```\nstill code\n~~~~\n", "\n"]);
	});
});

describe("splitFinished: blocks", () => {
	it("finishes a code block when its fence closes, with no blank line after it", () => {
		const result = splitFinished({ tail: "intro\n```ts\nconst a = 1;\n```\nafter", scanned: 0 });
		expect(result).toMatchObject({ finished: "intro\n```ts\nconst a = 1;\n```\n", tail: "after", continues: true });
		expect(result.openFence).toBeUndefined();
	});

	it("a blank line after the closing fence ends the cut there: the rest is apart", () => {
		const result = splitFinished({ tail: "```\nx\n```\n\nafter", scanned: 0 });
		expect(result).toMatchObject({ finished: "```\nx\n```\n\n", tail: "after", continues: false });
	});

	it("finishes lists and tables only at a blank line", () => {
		expect(splitFinished({ tail: "- a\n- b\n| x |\n|---|\n| 1 |\n", scanned: 0 })).toMatchObject({ finished: "", continues: false });
		expect(splitFinished({ tail: "- a\n- b\n\n| x |\n|---|\n| 1 |\n\nnext", scanned: 0 })).toMatchObject({ finished: "- a\n- b\n\n| x |\n|---|\n| 1 |\n\n", tail: "next" });
	});

	it("does not finish at the end of an indented fence (it may be inside a list item)", () => {
		const text = "- item\n  ```\n  code\n  ```\n  more";
		expect(feed([text])).toEqual({ finished: [], tail: text });
		expect(feed([...text])).toEqual({ finished: [], tail: text });
	});
});

describe("openFenceLine", () => {
	it("returns the opening line of an unclosed fence", () => {
		expect(openFenceLine("x\n```ts\nconst a")).toBe("```ts");
		expect(openFenceLine("```ts\na\n```\n")).toBeUndefined();
	});
});
