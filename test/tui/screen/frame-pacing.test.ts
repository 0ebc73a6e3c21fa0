import { describe, expect, it } from "vitest";
import { FAST_STREAM_CHARS_PER_SECOND, FAST_STREAM_INTERVAL_MS, RENDER_INTERVAL_MS, nextRenderInterval } from "../../../src/tui/screen/frame-pacing.js";

describe("nextRenderInterval", () => {
	it("draws about 30 frames a second for a stream at reading speed, or nothing streamed", () => {
		expect(nextRenderInterval(0, 33)).toBe(RENDER_INTERVAL_MS);
		// 100 tokens a second: about 13 characters a frame.
		expect(nextRenderInterval(13, 33)).toBe(RENDER_INTERVAL_MS);
	});

	it("draws fewer frames once a stream is faster than FAST_STREAM_CHARS_PER_SECOND", () => {
		const perFrame = Math.ceil((FAST_STREAM_CHARS_PER_SECOND * RENDER_INTERVAL_MS) / 1000);
		expect(nextRenderInterval(perFrame, RENDER_INTERVAL_MS)).toBe(FAST_STREAM_INTERVAL_MS);
		expect(nextRenderInterval(perFrame - 2, RENDER_INTERVAL_MS)).toBe(RENDER_INTERVAL_MS);
		// It stays fast over the longer window while the rate holds, and slows down with the stream.
		const perSlowFrame = (FAST_STREAM_CHARS_PER_SECOND * FAST_STREAM_INTERVAL_MS) / 1000;
		expect(nextRenderInterval(perSlowFrame, FAST_STREAM_INTERVAL_MS)).toBe(FAST_STREAM_INTERVAL_MS);
		expect(nextRenderInterval(perSlowFrame / 2, FAST_STREAM_INTERVAL_MS)).toBe(RENDER_INTERVAL_MS);
	});

	it("measures the rate over a whole frame at least: a burst after a quiet spell, or a flush, is not a fast stream by itself", () => {
		// A short window (a flush right after a frame) counts as RENDER_INTERVAL_MS long.
		expect(nextRenderInterval(20, 1)).toBe(RENDER_INTERVAL_MS);
		// A long quiet spell dilutes one burst.
		expect(nextRenderInterval(500, 5000)).toBe(RENDER_INTERVAL_MS);
	});

	it("keeps the fast interval below the clock's tick of 100 ms, so the clock rides along with the frames", () => {
		expect(FAST_STREAM_INTERVAL_MS).toBeLessThan(100);
		expect(FAST_STREAM_INTERVAL_MS).toBeGreaterThan(RENDER_INTERVAL_MS);
	});
});
