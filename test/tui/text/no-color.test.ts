// NO_COLOR's filter: colour parameters go, every other style and sequence stays.
import { describe, expect, it } from "vitest";
import { colorRefused } from "../../../src/tui/text/color-refused.js";
import { colorlessStream, withoutColor } from "../../../src/tui/text/no-color.js";
import { TestStdout } from "../terminal-streams.js";

const ESC = "\u001b";

describe("withoutColor", () => {
	it("takes out foreground and background colours, basic, bright, 256 and true colour", () => {
		expect(withoutColor(`${ESC}[32m✓${ESC}[39m ${ESC}[41mred${ESC}[49m ${ESC}[91mbright${ESC}[39m`)).toBe("✓ red bright");
		expect(withoutColor(`${ESC}[38;5;196mx${ESC}[39m${ESC}[48;2;1;2;3my${ESC}[49m`)).toBe("xy");
		expect(withoutColor(`${ESC}[38:2::10:20:30mz${ESC}[59m`)).toBe("z");
	});

	it("keeps bold, dim, italic, underline, inverse and resets, also beside a colour in one sequence", () => {
		expect(withoutColor(`${ESC}[1m${ESC}[2m${ESC}[3m${ESC}[4m${ESC}[7mx${ESC}[27m${ESC}[22m${ESC}[0m${ESC}[m`)).toBe(
			`${ESC}[1m${ESC}[2m${ESC}[3m${ESC}[4m${ESC}[7mx${ESC}[27m${ESC}[22m${ESC}[0m${ESC}[m`,
		);
		expect(withoutColor(`${ESC}[1;31;7mx${ESC}[38;5;2;4my`)).toBe(`${ESC}[1;7mx${ESC}[4my`);
	});

	it("leaves other sequences alone", () => {
		const cursor = `${ESC}[2K${ESC}[1A${ESC}[?25l${ESC}[?2004h`;
		expect(withoutColor(cursor)).toBe(cursor);
	});
});

describe("colorRefused", () => {
	it("is true for a NO_COLOR that is set and not empty, unless FORCE_COLOR is set too", () => {
		expect(colorRefused({ NO_COLOR: "1" })).toBe(true);
		expect(colorRefused({ NO_COLOR: "" })).toBe(false);
		expect(colorRefused({})).toBe(false);
		expect(colorRefused({ NO_COLOR: "1", FORCE_COLOR: "1" })).toBe(false);
	});
});

describe("colorlessStream", () => {
	it("writes without colour and is otherwise the stream: its size, its TTY flag, its events", () => {
		const target = new TestStdout(91, 17, true);
		const stream = colorlessStream(target as unknown as NodeJS.WriteStream);
		stream.write(`${ESC}[32mok${ESC}[39m`);
		expect(target.frames).toEqual(["ok"]);
		expect([stream.columns, stream.rows, stream.isTTY]).toEqual([91, 17, true]);
		let resized = 0;
		const onResize = () => resized++;
		stream.on("resize", onResize);
		target.resize(100, 20);
		stream.off("resize", onResize);
		target.resize(101, 20);
		expect(resized).toBe(1);
		expect(stream.columns).toBe(101);
	});
});
