import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { holdTypedKeys } from "../../src/cli/typed-ahead.js";

/** A terminal's stdin stand-in: a stream with setRawMode, recording the modes asked for. */
function terminalInput() {
	const stream = new PassThrough() as PassThrough & { setRawMode(mode: boolean): void; modes: boolean[] };
	stream.modes = [];
	stream.setRawMode = (mode) => void stream.modes.push(mode);
	return stream;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("holdTypedKeys", () => {
	it("puts the terminal in raw mode and hands over what was typed, a character cut between reads included", async () => {
		const stdin = terminalInput();
		const typed = holdTypedKeys(stdin as unknown as NodeJS.ReadStream, () => {});
		expect(stdin.modes).toEqual([true]);
		const euro = Buffer.from("€");
		stdin.write(Buffer.concat([Buffer.from("hi "), euro.subarray(0, 1)]));
		await turn();
		stdin.write(Buffer.concat([euro.subarray(1), Buffer.from("\r")]));
		await turn();
		expect(typed.release()).toBe("hi €\r");
		expect(typed.release()).toBe("");
	});

	it("leaves what comes after the release in the stream for the next reader", async () => {
		const stdin = terminalInput();
		const typed = holdTypedKeys(stdin as unknown as NodeJS.ReadStream, () => {});
		stdin.write("early");
		await turn();
		expect(typed.release()).toBe("early");
		stdin.write("late");
		await turn();
		expect(String(stdin.read())).toBe("late");
	});

	it("takes the first line once Enter (or a line feed, typed before raw mode) ends it, leaving the rest to the release", async () => {
		const stdin = terminalInput();
		const typed = holdTypedKeys(stdin as unknown as NodeJS.ReadStream, () => {});
		stdin.write("hal");
		await turn();
		expect(typed.line()).toBeUndefined();
		expect(typed.takeLine()).toBeUndefined();
		stdin.write("f\rmore");
		await turn();
		expect(typed.line()).toBe("half");
		expect(typed.takeLine()).toBe("half");
		expect(typed.line()).toBeUndefined();
		expect(typed.release()).toBe("more");

		const cooked = holdTypedKeys(terminalInput() as unknown as NodeJS.ReadStream, () => {});
		expect(cooked.takeLine()).toBeUndefined();
		cooked.release();
	});

	it("tells what would be handed over at once, after each read and take, and not after the release", async () => {
		const stdin = terminalInput();
		const typed = holdTypedKeys(stdin as unknown as NodeJS.ReadStream, () => {});
		const seen: string[] = [];
		typed.onTyped((text) => seen.push(text));
		stdin.write("ab");
		await turn();
		stdin.write("\rc");
		await turn();
		typed.takeLine();
		typed.release();
		stdin.write("after");
		await turn();
		expect(seen).toEqual(["", "ab", "ab\rc", "c"]);
	});

	it("reads a line fed before raw mode, and takes nothing once released", async () => {
		const stdin = terminalInput();
		const typed = holdTypedKeys(stdin as unknown as NodeJS.ReadStream, () => {});
		stdin.write("hi\n");
		await turn();
		expect(typed.line()).toBe("hi");
		expect(typed.release()).toBe("hi\n");
		expect(typed.takeLine()).toBeUndefined();
	});

	it("interrupts on Ctrl+C, as the terminal's own interrupt would before the screen is up", async () => {
		const stdin = terminalInput();
		let interrupted = 0;
		const typed = holdTypedKeys(stdin as unknown as NodeJS.ReadStream, () => interrupted++);
		stdin.write("ab\u0003");
		await turn();
		expect(interrupted).toBe(1);
		typed.release();
	});
});
