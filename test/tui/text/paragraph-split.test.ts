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
		expect(charByChar.finished).toEqual(["intro\n\n", "~~~~\ncode\n\n```\nstill code\n~~~~\n\n"]);
	});
});

describe("openFenceLine", () => {
	it("returns the opening line of an unclosed fence", () => {
		expect(openFenceLine("x\n```ts\nconst a")).toBe("```ts");
		expect(openFenceLine("```ts\na\n```\n")).toBeUndefined();
	});
});
