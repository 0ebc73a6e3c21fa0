// How often the screen draws while events arrive: about 30 frames a second, fewer under a fast stream. Each
// frame redraws the whole live area (Ink builds it cell by cell), so an answer streaming faster than anyone
// reads is drawn in fewer, larger steps: the same text, at a fraction of the CPU.

/** At most one screen update per this many ms (~30 per second), however fast events arrive. */
export const RENDER_INTERVAL_MS = 33;
/** Under a fast stream, one update per this many ms (~12 per second): below the clock's tick, which rides along. */
export const FAST_STREAM_INTERVAL_MS = 80;
/** Streamed characters a second (about 500 tokens; a model at reading speed sends a tenth of that) from which a stream is fast. */
export const FAST_STREAM_CHARS_PER_SECOND = 2000;

/**
 * The wait before the next frame, from the characters streamed in the window the last frame closed (`windowMs`
 * long; a window shorter than RENDER_INTERVAL_MS, such as a flush, counts as that long).
 */
export function nextRenderInterval(streamedChars: number, windowMs: number): number {
	const fast = streamedChars * 1000 >= FAST_STREAM_CHARS_PER_SECOND * Math.max(windowMs, RENDER_INTERVAL_MS);
	return fast ? FAST_STREAM_INTERVAL_MS : RENDER_INTERVAL_MS;
}
