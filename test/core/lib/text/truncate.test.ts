import { describe, expect, it } from "vitest";
import { formatSize } from "../../../../src/core/lib/format.js";
import { lastBytesOf, splitLines, truncateHead, truncateTail } from "../../../../src/core/lib/text/truncate.js";

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n");

describe("truncateHead", () => {
	it("returns short text whole", () => {
		const result = truncateHead("a\nb\n");
		expect(result).toMatchObject({ content: "a\nb", truncated: false, totalLines: 2, outputLines: 2 });
	});

	it("stops at the line limit", () => {
		const result = truncateHead(numbered(10), { maxLines: 3 });
		expect(result).toMatchObject({ content: "line 1\nline 2\nline 3", truncated: true, truncatedBy: "lines", outputLines: 3, totalLines: 10 });
	});

	it("stops at the byte limit between lines, never mid-line", () => {
		const result = truncateHead("aaaa\nbbbb\ncccc", { maxBytes: 12 });
		expect(result).toMatchObject({ content: "aaaa\nbbbb", truncated: true, truncatedBy: "bytes", outputBytes: 9 });
	});

	it("counts UTF-8 bytes, not characters", () => {
		const result = truncateHead("ééé\nx", { maxBytes: 6 });
		expect(result.content).toBe("ééé");
		expect(truncateHead("ééé\nx", { maxBytes: 5 }).firstLineExceedsLimit).toBe(true);
	});

	it("flags a first line over the byte limit and returns nothing", () => {
		const result = truncateHead(`${"x".repeat(100)}\nshort`, { maxBytes: 50 });
		expect(result).toMatchObject({ content: "", truncated: true, firstLineExceedsLimit: true, outputLines: 0 });
	});
});

describe("truncateTail", () => {
	it("keeps the last lines within the line limit", () => {
		const result = truncateTail(numbered(10), { maxLines: 2 });
		expect(result).toMatchObject({ content: "line 9\nline 10", truncated: true, truncatedBy: "lines", outputLines: 2 });
	});

	it("keeps the last lines within the byte limit", () => {
		const result = truncateTail("aaaa\nbbbb\ncccc\n", { maxBytes: 10 });
		expect(result).toMatchObject({ content: "bbbb\ncccc", truncated: true, truncatedBy: "bytes" });
	});

	it("returns the end of a last line that alone is over the limit", () => {
		const result = truncateTail(`start\n${"a".repeat(30)}${"z".repeat(10)}`, { maxBytes: 10 });
		expect(result).toMatchObject({ content: "z".repeat(10), lastLinePartial: true, truncated: true });
	});
});

describe("helpers", () => {
	it("splits lines without inventing an empty last line", () => {
		expect(splitLines("")).toEqual([]);
		expect(splitLines("a\n")).toEqual(["a"]);
		expect(splitLines("a\n\nb")).toEqual(["a", "", "b"]);
	});

	it("never starts a byte slice inside a character", () => {
		expect(lastBytesOf("aé", 1)).toBe("");
		expect(lastBytesOf("aé", 2)).toBe("é");
		expect(lastBytesOf("aé", 3)).toBe("aé");
	});

	it("formats sizes", () => {
		expect(formatSize(512)).toBe("512 B");
		expect(formatSize(50 * 1024)).toBe("50.0 KB");
		expect(formatSize(3 * 1024 * 1024)).toBe("3.0 MB");
	});
});
