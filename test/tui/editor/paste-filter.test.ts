import { describe, expect, it } from "vitest";
import { PasteFilter, withPasteFilter } from "../../../src/tui/editor/paste-filter.js";

const ESC = "\u001b";
const START = `${ESC}[200~`;
const END = `${ESC}[201~`;

/** Feeds `input` in chunks cut at `cuts` and returns what the filter passed on. */
function filtered(input: string, cuts: number[] = []): string {
	const filter = new PasteFilter();
	let out = "";
	let from = 0;
	for (const cut of [...cuts, input.length]) {
		out += filter.push(input.slice(from, cut));
		from = cut;
	}
	return out;
}

describe("PasteFilter", () => {
	it("strips escape sequences inside a paste, keeping its line breaks, tabs and the markers", () => {
		const input = `${START}red ${ESC}[31mtext${ESC}[0m\r${ESC}]2;title\u0007next\tline\u009b1m${END}`;
		expect(filtered(input)).toBe(`${START}red text\rnext\tline${END}`);
	});

	it("passes keys outside a paste unchanged: arrows, Escape, Ctrl chords", () => {
		const keys = `${ESC}[A${ESC}[B${ESC}\u0003abc${ESC}[1;5C`;
		expect(filtered(keys)).toBe(keys);
		expect(filtered(`${keys}${START}x${ESC}[1my${END}${keys}`)).toBe(`${keys}${START}xy${END}${keys}`);
	});

	it("finds markers and sequences cut between chunks, wherever the cut falls", () => {
		const input = `ab${START}one ${ESC}]2;title\u0007two ${ESC}[38;5;1mthree${END}${ESC}[Acd`;
		const expected = `ab${START}one two three${END}${ESC}[Acd`;
		for (let cut = 1; cut < input.length; cut++) expect(filtered(input, [cut]), `cut at ${cut}`).toBe(expected);
		expect(filtered(input, Array.from({ length: input.length - 1 }, (_, i) => i + 1))).toBe(expected);
	});

	it("never holds back a lone Escape key", () => {
		const filter = new PasteFilter();
		expect(filter.push(ESC)).toBe(ESC);
	});
});

describe("withPasteFilter", () => {
	/** A stdin whose read() hands out `chunks` one by one, as a terminal's reads would. */
	function stdinOf(chunks: string[]): NodeJS.ReadStream {
		return { read: () => chunks.shift() ?? null } as unknown as NodeJS.ReadStream;
	}

	function readAll(stdin: NodeJS.ReadStream): string[] {
		const reads: string[] = [];
		for (let chunk = stdin.read(); chunk !== null; chunk = stdin.read()) reads.push(String(chunk));
		return reads;
	}

	it("hands each Ctrl+C over as a key of its own, even when two arrive in one read", () => {
		expect(readAll(withPasteFilter(stdinOf(["\u0003\u0003"])))).toEqual(["\u0003", "\u0003"]);
		expect(readAll(withPasteFilter(stdinOf(["ab\u0003cd"])))).toEqual(["ab", "\u0003", "cd"]);
	});

	it("reads keys typed before the screen was up first, each control key apart and a line feed as Enter, then the later keys as before", () => {
		const chunks = ["ab\rcd"];
		const stdin = { read: () => chunks.shift() ?? null, unshift: (text: string) => (chunks[0] = text + (chunks[0] ?? "")) } as unknown as NodeJS.ReadStream;
		// Typed in line mode and read together: "hi", Enter (a line feed then), Tab, "x", an arrow key.
		expect(readAll(withPasteFilter(stdin, undefined, "hi\n\tx\u001b[A"))).toEqual(["hi", "\r", "\t", "x\u001b[A", "ab\rcd"]);
	});

	it("keeps a paste whole, its line breaks included", () => {
		expect(readAll(withPasteFilter(stdinOf([`${START}one\rtwo${END}`])))).toEqual([`${START}one\rtwo${END}`]);
		expect(readAll(withPasteFilter(stdinOf(["one\rtwo"])))).toEqual(["one\rtwo"]);
	});
});
