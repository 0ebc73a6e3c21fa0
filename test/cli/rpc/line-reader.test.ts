// RPC mode's line reader: lines split on "\n" only, whatever the chunks, and each bounded.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readLines } from "../../../src/cli/rpc/line-reader.js";

async function read(chunks: (string | Buffer)[], maxChars = 100) {
	const stream = new PassThrough();
	const lines: string[] = [];
	const tooLong: number[] = [];
	const done = readLines(stream, maxChars, { line: (text) => lines.push(text), tooLong: (chars) => tooLong.push(chars) });
	for (const chunk of chunks) stream.write(chunk);
	stream.end();
	await done;
	return { lines, tooLong };
}

describe("readLines", () => {
	it("joins lines split across chunks, drops a \\r before the \\n, and keeps a last line without its newline", async () => {
		const { lines } = await read(['{"type":', '"a"}\r\n{"type":"b"}\n', "", '{"type":"c"}']);
		expect(lines).toEqual(['{"type":"a"}', '{"type":"b"}', '{"type":"c"}']);
	});

	it("splits on \\n only: U+2028 and a lone \\r stay inside the line", async () => {
		const { lines } = await read(['{"text":"a\u2028b\rc"}\n']);
		expect(lines).toEqual(['{"text":"a\u2028b\rc"}']);
	});

	it("decodes a character split between chunks", async () => {
		const bytes = Buffer.from("é€\n", "utf8");
		const { lines } = await read([bytes.subarray(0, 1), bytes.subarray(1, 3), bytes.subarray(3)]);
		expect(lines).toEqual(["é€"]);
	});

	it("skips a line over the limit to its end, reports it once, and reads the next line", async () => {
		const { lines, tooLong } = await read(["x".repeat(60), "x".repeat(60), "x".repeat(60), "\nnext\n"], 100);
		expect(tooLong).toEqual([120]);
		expect(lines).toEqual(["next"]);
	});
});
