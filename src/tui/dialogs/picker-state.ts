// A picker as plain data: the filter typed so far, the highlighted row among the choices that match it, and
// the first row shown. Pure: the Picker component maps keys onto pickerStep.
import type { UiChoice } from "../../core/index.js";
import { fuzzyFilter } from "../completion/index.js";
import type { DialogKey } from "./dialog-keys.js";

export interface PickerState {
	query: string;
	/** Index into the matching choices. */
	selected: number;
	/** First matching choice shown (the list scrolls to keep `selected` in view). */
	top: number;
}

export type PickerOutcome = { type: "state"; state: PickerState } | { type: "choose"; index: number } | { type: "dismiss" };

export function initialPicker(initialIndex: number | undefined, count: number, rows: number): PickerState {
	const selected = Math.max(0, Math.min(count - 1, initialIndex ?? 0));
	return { query: "", selected, top: scrollTop(selected, 0, rows) };
}

/** The choices matching `query`, best first; each with its index among all choices. */
export function matchingChoices<T>(choices: readonly UiChoice<T>[], query: string): { choice: UiChoice<T>; index: number }[] {
	const indexed = choices.map((choice, index) => ({ choice, index }));
	return fuzzyFilter(indexed, query, ({ choice }) => (choice.description ? `${choice.label} ${choice.description}` : choice.label));
}

/** Choices a short list numbers when their first letters do not tell them apart. */
const MAX_NUMBERED = 9;

/**
 * A key for each choice of a list that does not filter, so that a question is answered with one key: each
 * label's first letter or digit (lower case) when no two labels share one, else the choices' numbers 1-9;
 * undefined for a longer list whose letters clash.
 */
export function choiceKeys(labels: readonly string[]): string[] | undefined {
	const firsts = labels.map((label) => (/^[\p{L}\p{N}]/u.test(label) ? Array.from(label)[0]!.toLowerCase() : ""));
	if (firsts.every((first) => first !== "") && new Set(firsts).size === firsts.length) return firsts;
	return labels.length <= MAX_NUMBERED ? labels.map((_, index) => String(index + 1)) : undefined;
}

/** The first row to show so that `selected` is among `rows` rows starting there, moving as little as possible. */
export function scrollTop(selected: number, top: number, rows: number): number {
	if (rows <= 0) return selected;
	if (selected < top) return selected;
	if (selected >= top + rows) return selected - rows + 1;
	return top;
}

function moved(state: PickerState, selected: number, rows: number): PickerOutcome {
	return { type: "state", state: { ...state, selected, top: scrollTop(selected, state.top, rows) } };
}

function filtered(query: string): PickerOutcome {
	return { type: "state", state: { query, selected: 0, top: 0 } };
}

/**
 * One key in a picker showing `count` matching choices in `rows` rows. Up/Down wrap around; PageUp/PageDown
 * move a page; Home/End go to the ends. With `filter`, typed text narrows the choices and Backspace widens them;
 * without, a choice's key (`keys`, from choiceKeys) chooses it at once. Text typed ahead in one chunk is no key.
 */
export function pickerStep(state: PickerState, key: DialogKey, count: number, rows: number, filter: boolean, keys?: readonly string[]): PickerOutcome {
	const last = Math.max(0, count - 1);
	const page = Math.max(1, rows);
	switch (key.type) {
		case "up":
			return moved(state, state.selected <= 0 ? last : state.selected - 1, rows);
		case "down":
			return moved(state, state.selected >= last ? 0 : state.selected + 1, rows);
		case "pageUp":
			return moved(state, Math.max(0, state.selected - page), rows);
		case "pageDown":
			return moved(state, Math.min(last, state.selected + page), rows);
		case "home":
			return moved(state, 0, rows);
		case "end":
			return moved(state, last, rows);
		case "enter":
			return count > 0 ? { type: "choose", index: state.selected } : { type: "state", state };
		case "dismiss":
			return { type: "dismiss" };
		case "text": {
			if (filter) return filtered(state.query + key.text);
			const index = keys?.indexOf(key.text.toLowerCase()) ?? -1;
			return index !== -1 && index < count ? { type: "choose", index } : { type: "state", state };
		}
		case "backspace":
			return filter && state.query !== "" ? filtered(Array.from(state.query).slice(0, -1).join("")) : { type: "state", state };
		case "clear":
			return filter && state.query !== "" ? filtered("") : { type: "state", state };
		default:
			return { type: "state", state };
	}
}
