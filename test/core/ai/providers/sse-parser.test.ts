import { describe, expect, it } from "vitest";
import { MAX_SSE_EVENT_CHARS, SseParser } from "../../../../src/core/ai/providers/sse-parser.js";

type Parsed = [event: string | undefined, data: string];

function parse(chunks: (string | Uint8Array)[]): Parsed[] {
	const events: Parsed[] = [];
	const parser = new SseParser((event, data) => events.push([event, data]));
	const encoder = new TextEncoder();
	for (const chunk of chunks) parser.push(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
	parser.end();
	return events;
}

/** Every way of cutting `bytes` in two, plus one byte at a time. */
function splits(bytes: Uint8Array): Uint8Array[][] {
	const all: Uint8Array[][] = [];
	for (let i = 0; i <= bytes.length; i++) all.push([bytes.slice(0, i), bytes.slice(i)]);
	all.push(Array.from(bytes, (byte) => Uint8Array.of(byte)));
	return all;
}

const STREAM =
	": keep-alive\n\n" +
	"event: message_start\ndata: {\"a\":1}\n\n" +
	"data: first line\ndata: second line\n\n" +
	"data:no space\r\n\r\n" +
	"event: ping\r\ndata: {}\r\r" +
	"id: 7\nretry: 100\nunknown: field\ndata: héllo ✓ 😀\n\n";

const EXPECTED: Parsed[] = [
	["message_start", '{"a":1}'],
	[undefined, "first line\nsecond line"],
	[undefined, "no space"],
	["ping", "{}"],
	[undefined, "héllo ✓ 😀"],
];

describe("SseParser", () => {
	it("parses events, names, multi-line data, comments and every line ending", () => {
		expect(parse([STREAM])).toEqual(EXPECTED);
	});

	it("gives the same events however the bytes are split, inside lines, line endings and UTF-8 sequences", () => {
		const bytes = new TextEncoder().encode(STREAM);
		for (const chunks of splits(bytes)) expect(parse(chunks)).toEqual(EXPECTED);
	});

	it("drops an event whose closing blank line never came, and ignores blank lines with nothing before them", () => {
		expect(parse(["\n\n\ndata: complete\n\ndata: cut off"])).toEqual([[undefined, "complete"]]);
		expect(parse(["data: cut off\n"])).toEqual([]);
	});

	it("keeps a value's colons and spaces after the first one, and reads a field without a colon as empty", () => {
		expect(parse(["data:  two spaces: kept\n\n", "data\n\n", "event\ndata: x\n\n"])).toEqual([
			[undefined, " two spaces: kept"],
			[undefined, ""],
			[undefined, "x"],
		]);
	});

	it("stops at a handler's exception, which reaches the caller", () => {
		const parser = new SseParser((_event, data) => {
			if (data === "bad") throw new SyntaxError("bad event");
		});
		expect(() => parser.push(new TextEncoder().encode("data: ok\n\ndata: bad\n\n"))).toThrow("bad event");
	});

	it("reads a long stream of small events in linear time", () => {
		const event = 'data: {"choices":[{"delta":{"content":"word"}}]}\n\n';
		const text = event.repeat(50_000);
		const bytes = new TextEncoder().encode(text);
		let count = 0;
		const parser = new SseParser(() => count++);
		const started = performance.now();
		// Network-sized pieces, cut at arbitrary places.
		for (let i = 0; i < bytes.length; i += 16_381) parser.push(bytes.subarray(i, i + 16_381));
		parser.end();
		expect(count).toBe(50_000);
		// Generous: the point is "not seconds" on any machine.
		expect(performance.now() - started).toBeLessThan(2000);
	});

	it("joins a line split over many chunks without losing any of it", () => {
		const long = "x".repeat(100_000);
		const chunks = [`data: ${long.slice(0, 10)}`, ...Array.from({ length: 100 }, (_, i) => long.slice(10 + i * 999, 10 + (i + 1) * 999)), `${long.slice(10 + 100 * 999)}\n\n`];
		expect(parse(chunks)).toEqual([[undefined, long]]);
	});

	it("refuses an event over 16 MB as it arrives, whether one endless line or many data lines", () => {
		const piece = new TextEncoder().encode("x".repeat(1 << 20));
		const endless = new SseParser(() => {});
		endless.push(new TextEncoder().encode("data: "));
		let pushed = 0;
		expect(() => {
			for (; pushed < 100; pushed++) endless.push(piece);
		}).toThrow(/event larger than 16 MB/);
		// Stopped by the sixteenth piece (index 15), the first past the limit, not at the end of the line.
		expect(pushed).toBe(15);

		const manyLines = new SseParser(() => {});
		const line = new TextEncoder().encode(`data: ${"y".repeat(1 << 20)}\n`);
		expect(() => {
			for (let i = 0; i < 100; i++) manyLines.push(line);
		}).toThrow(/event larger than 16 MB/);
	});

	it("still takes an event just under the limit", () => {
		const big = "z".repeat(MAX_SSE_EVENT_CHARS - 10);
		expect(parse([`data: ${big.slice(0, 5)}`, `${big.slice(5)}\n\n`])).toEqual([[undefined, big]]);
	});
});
