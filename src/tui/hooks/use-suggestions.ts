import { useCallback, useEffect, useMemo, useReducer, useRef } from "react";
import type { CompletionSource, SuggestionList } from "../completion/index.js";

export interface SuggestionPopup {
	list: SuggestionList;
	/** Index of the highlighted item. */
	selected: number;
}

interface Where {
	text: string;
	cursor: number;
}

export interface Suggestions {
	/** The popup for this text and cursor, if any (recomputed on each call: key handlers pass their latest state). */
	popupFor(where: Where): SuggestionPopup | undefined;
	/** Moves the highlight, wrapping around. */
	move(delta: number): void;
	/** Hides the popup until the text changes (Esc). */
	dismiss(text: string): void;
	/** Shows a list asked for with Tab, for as long as the text and cursor stay as they are. */
	show(list: SuggestionList, where: Where): void;
}

/**
 * The editor's completion popup: what `source` offers for the text, the highlighted item, and what Esc and
 * Tab asked for. Re-renders the editor when the source has more to offer (files indexed, matches found).
 */
export function useSuggestions(source: CompletionSource | undefined): Suggestions {
	const [, refresh] = useReducer((count: number) => count + 1, 0);
	useEffect(() => source?.subscribe(refresh), [source]);
	const state = useRef({ key: "", selected: 0, count: 0, dismissed: undefined as string | undefined, shown: undefined as { list: SuggestionList; where: Where } | undefined });

	const popupFor = useCallback(
		(where: Where): SuggestionPopup | undefined => {
			const s = state.current;
			if (s.dismissed !== undefined && s.dismissed === where.text) return undefined;
			s.dismissed = undefined;
			const shown = s.shown && s.shown.where.text === where.text && s.shown.where.cursor === where.cursor ? s.shown.list : undefined;
			const list = shown ?? source?.suggest(where.text, where.cursor);
			if (!list || (list.items.length === 0 && !list.pending)) return undefined;
			const key = `${list.kind}:${list.from}:${list.typed}`;
			if (key !== s.key) {
				s.key = key;
				s.selected = 0;
			}
			s.count = list.items.length;
			return { list, selected: Math.min(s.selected, Math.max(0, list.items.length - 1)) };
		},
		[source],
	);

	return useMemo(
		() => ({
			popupFor,
			move(delta: number) {
				const s = state.current;
				if (s.count > 0) s.selected = (s.selected + delta + s.count) % s.count;
				refresh();
			},
			dismiss(text: string) {
				state.current.dismissed = text;
				state.current.shown = undefined;
				refresh();
			},
			show(list: SuggestionList, where: Where) {
				state.current.shown = { list, where };
				refresh();
			},
		}),
		[popupFor],
	);
}
