import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { LineWriter } from "../../../src/cli/print/line-writer.js";

/** A stream whose reader takes what was written only when the test says so. */
function slowStream(highWaterMark = 32) {
	const received: string[] = [];
	const pending: (() => void)[] = [];
	const stream = new Writable({
		highWaterMark,
		write(chunk: Buffer, _encoding, callback) {
			pending.push(() => {
				received.push(chunk.toString());
				callback();
			});
		},
	});
	const readAll = async () => {
		while (pending.length > 0) {
			pending.shift()!();
			await new Promise((resolve) => setImmediate(resolve));
		}
	};
	return { stream, received, readAll };
}

describe("LineWriter", () => {
	it("writes JSON lines in order, and makes the writer wait while the reader lags, until it has read", async () => {
		const { stream, received, readAll } = slowStream();
		const out = new LineWriter(stream);
		expect(out.write({ n: 1 })).toBeUndefined();
		let waiting: Promise<void> | undefined;
		for (let n = 2; n <= 10 && !waiting; n++) waiting = out.write({ n, padding: "x".repeat(10) });
		expect(waiting).toBeInstanceOf(Promise);
		let released = false;
		void waiting!.then(() => (released = true));
		await new Promise((resolve) => setImmediate(resolve));
		expect(released).toBe(false);
		out.write("a line as given");
		await readAll();
		await waiting;
		expect(released).toBe(true);
		const lines = received.join("").split("\n");
		expect(lines.at(-1)).toBe("");
		expect(lines.at(-2)).toBe("a line as given");
		expect(lines.slice(0, -2).map((line) => JSON.parse(line).n)).toEqual(lines.slice(0, -2).map((_, i) => i + 1));
	});

	it("once the stream fails, releases whoever waits, drops the remaining lines without throwing, and says why once", async () => {
		const { stream } = slowStream(8);
		const out = new LineWriter(stream);
		const waiting = out.write({ text: "more than the stream holds" });
		expect(waiting).toBeInstanceOf(Promise);
		const ends: (string | undefined)[] = [];
		out.onEnd((error) => ends.push(error?.code));
		stream.destroy(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
		await waiting;
		expect(out.open).toBe(false);
		expect(() => out.write({ text: "after" })).not.toThrow();
		expect(out.write({ text: "after" })).toBeUndefined();
		expect(ends).toEqual(["EPIPE"]);
		out.onEnd((error) => ends.push(`late ${error?.code}`));
		expect(ends).toEqual(["EPIPE", "late EPIPE"]);
	});
});
