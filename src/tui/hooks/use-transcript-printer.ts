import { useLayoutEffect, useMemo, useReducer, useRef } from "react";
import type { NamedToolPresentation } from "../../core/index.js";
import { awaitsHighlighter, loadHighlighter } from "../text/index.js";
import { transcriptText } from "../transcript/index.js";
import type { TranscriptItem } from "../transcript/index.js";

/** Erase screen, erase scrollback, cursor home: what a reprint starts with. */
export const CLEAR_TERMINAL = "\u001b[2J\u001b[3J\u001b[H";

export interface TranscriptPrinter {
	/** Prints `prefix` (e.g. a terminal clear) and then everything printed so far again, at the current width. */
	reprint(prefix: string): void;
}

/** An answer with code the highlighter (loaded after the first frame) would colour: printed once it is there. */
function waitsForHighlighter(item: TranscriptItem): boolean {
	return item.kind === "assistant" && awaitsHighlighter(item.text);
}

/**
 * Prints each transcript item once, as soon as a render commits it, through `print` (Ink's write: the text
 * goes above the live area, which Ink draws again below it). A layout effect, so it runs right after Ink
 * drew the committed frame: the live area restored below the printed text is already the one without it.
 * (The screen renders unthrottled for this; see mount-screen.ts.) What is printed stays as printed, so an
 * answer with code waits, with everything after it, until the highlighter has loaded; `leaving` (the last
 * render) prints everything as it is. When `showThinking` changes, the terminal is cleared, its scrollback
 * included, and everything is printed again with thinking in full or collapsed (a terminal keeps only as
 * much of it as its scrollback holds), except items the transcript no longer holds. Otherwise items are
 * only ever appended.
 */
export function useTranscriptPrinter(
	items: readonly TranscriptItem[],
	width: number,
	showThinking: boolean,
	print: (text: string) => void,
	tools: readonly NamedToolPresentation[] = [],
	leaving = false,
): TranscriptPrinter {
	const printed = useRef<readonly TranscriptItem[]>([]);
	const latest = useRef({ width, showThinking, print, tools });
	latest.current = { width, showThinking, print, tools };
	const [, highlighterLoaded] = useReducer((count: number) => count + 1, 0);
	const printedThinking = useRef(showThinking);

	const printer = useMemo(
		() => ({
			reprint(prefix: string) {
				const { width: columns, showThinking: expanded, print: write, tools: presentations } = latest.current;
				write(prefix + transcriptText(printed.current, columns, expanded, presentations));
			},
		}),
		[],
	);

	useLayoutEffect(() => {
		if (showThinking !== printedThinking.current) {
			printedThinking.current = showThinking;
			// What left the transcript (the previous toggle's line) is not printed again.
			const kept = new Set(items.map((item) => item.id));
			printed.current = printed.current.filter((item) => kept.has(item.id));
			printer.reprint(CLEAR_TERMINAL);
		}
		const count = printed.current.length;
		if (items.length <= count) return;
		let end = items.length;
		const waiting = leaving ? -1 : items.findIndex((item, index) => index >= count && waitsForHighlighter(item));
		if (waiting !== -1) {
			end = waiting;
			void loadHighlighter().then(highlighterLoaded);
		}
		if (end === count) return;
		const fresh = items.slice(count, end);
		printed.current = items.slice(0, end);
		print(transcriptText(fresh, width, showThinking, tools));
	});

	return printer;
}
