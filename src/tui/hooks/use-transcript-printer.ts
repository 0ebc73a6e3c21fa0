import { useLayoutEffect, useMemo, useRef } from "react";
import type { NamedToolPresentation } from "../../core/tool-definition.js";
import { transcriptText } from "../transcript-text.js";
import type { TranscriptItem } from "../view-model.js";

export interface TranscriptPrinter {
	/** Prints `prefix` (e.g. a terminal clear) and then everything printed so far again, at the current width. */
	reprint(prefix: string): void;
}

/**
 * Prints each transcript item once, as soon as a render commits it, through `print` (Ink's write: the text
 * goes above the live area, which Ink draws again below it). A layout effect, so it runs right after Ink
 * drew the committed frame: the live area restored below the printed text is already the one without it.
 * (The screen renders unthrottled for this; see mount-screen.ts.)
 */
export function useTranscriptPrinter(
	items: readonly TranscriptItem[],
	width: number,
	showThinking: boolean,
	print: (text: string) => void,
	tools: readonly NamedToolPresentation[] = [],
): TranscriptPrinter {
	const printed = useRef<readonly TranscriptItem[]>([]);
	const latest = useRef({ width, showThinking, print, tools });
	latest.current = { width, showThinking, print, tools };

	useLayoutEffect(() => {
		const count = printed.current.length;
		if (items.length <= count) return;
		const fresh = items.slice(count);
		printed.current = items;
		print(transcriptText(fresh, width, showThinking, tools));
	});

	return useMemo(
		() => ({
			reprint(prefix: string) {
				const { width: columns, showThinking: expanded, print: write, tools: presentations } = latest.current;
				write(prefix + transcriptText(printed.current, columns, expanded, presentations));
			},
		}),
		[],
	);
}
