// The editor's first frame on a terminal stand-in: the bytes it writes for the keys typed into it, and what it
// leaves alone (other keys, a line too long, a changed width, anything after the frame was erased).
import { describe, expect, it } from "vitest";
import { drawFirstFrame } from "../../../src/tui/screen/first-frame.js";

/** A terminal's output stand-in recording every write. */
function terminal(columns: number) {
	const written: string[] = [];
	const stream = {
		isTTY: true,
		columns,
		write(chunk: string) {
			written.push(String(chunk));
			return true;
		},
	};
	return { stream: stream as unknown as NodeJS.WriteStream, written };
}

function open(columns = 40) {
	const out = terminal(columns);
	const err = terminal(columns);
	const frame = drawFirstFrame(out.stream, err.stream, { NO_COLOR: "1" })!;
	const sinceFrame = out.written.length;
	return { frame, out, drawn: () => out.written.slice(sinceFrame), erase: () => out.stream.write("screen") };
}

describe("drawFirstFrame's showTyped", () => {
	it("redraws the editor's row with the line typed, Backspace applied, and the cursor back on the bottom row", () => {
		const { frame, drawn, erase } = open(20);
		frame.showTyped("hex");
		frame.showTyped("hex\u007fllo");
		// 20 columns: the row is │, "› ", the text, the cursor, padding to 18 inner columns, │.
		expect(drawn()).toEqual([`\r\u001b[1A│› hex\u001b[7m \u001b[27m${" ".repeat(12)}│\r\u001b[1B`, `\r\u001b[1A│› hello\u001b[7m \u001b[27m${" ".repeat(10)}│\r\u001b[1B`]);
		erase();
	});

	it("draws the line after the last Enter, and the placeholder when it is empty", () => {
		const { frame, drawn, erase } = open(40);
		frame.showTyped("sent\rnext");
		frame.showTyped("sent\r");
		expect(drawn()[0]).toContain("│› next\u001b[7m \u001b[27m");
		expect(drawn()[1]).toContain("Ask loom");
		erase();
	});

	it("leaves the row as it is for keys it does not draw, a line too long or a changed width", () => {
		const { frame, out, drawn, erase } = open(20);
		frame.showTyped("a\u001b[D");
		frame.showTyped("tab\there");
		frame.showTyped("wide \u4e2d");
		frame.showTyped("x".repeat(16));
		expect(drawn()).toEqual([]);
		frame.showTyped("x".repeat(15));
		expect(drawn()).toHaveLength(1);
		(out.stream as { columns: number }).columns = 30;
		frame.showTyped("other");
		expect(drawn()).toHaveLength(1);
		erase();
	});

	it("writes nothing once anything else has been written (the frame is erased)", () => {
		const { frame, drawn, erase } = open();
		erase();
		const before = drawn().length;
		frame.showTyped("late");
		expect(drawn()).toHaveLength(before);
	});
});
