// What a picker shows of its matching choices: the rows in view, each fitted to the dialog's width with the
// descriptions lined up in a column, and the key hint. Pure; PickerDialog only styles it.
import type { UiChoice } from "../../core/session/session-ui.js";
import { stripToOneLine } from "../../core/text/sanitize-terminal.js";
import { columns } from "../fit-row.js";
import { CHOICE_GAP, fitChoiceRow } from "./choice-row.js";

/** Labels longer than this push their description further instead of widening the column. */
const LABEL_COLUMN_MAX = 40;
/** "› " before the highlighted choice (blanks before the others); "[y] " for a choice's key. */
const MARKER_WIDTH = 2;
const KEY_WIDTH = 4;
/** The dialog's border, left and right. */
const BORDER_WIDTH = 2;

export interface PickerRow {
	/** The choice's index among all choices. */
	index: number;
	selected: boolean;
	/** The key that chooses it, in a list that does not filter. */
	key?: string;
	/** Cut and padded so the descriptions line up. */
	label: string;
	/** With the gap before it; "" without one. */
	description: string;
}

export interface PickerRowsOptions {
	/** The matching choices, in order, each with its index among all choices. */
	matches: readonly { choice: UiChoice<unknown>; index: number }[];
	/** First match shown, the highlighted one, and how many rows the choices have. */
	top: number;
	selected: number;
	choiceRows: number;
	/** A key per choice (by its index among all choices), or undefined. */
	keys?: readonly string[];
	/** The dialog's width, border included. */
	width: number;
}

/** The rows in view; labels and descriptions from outside are put on one line without escapes. */
export function pickerRows({ matches, top, selected, choiceRows, keys, width }: PickerRowsOptions): PickerRow[] {
	const shown = matches.slice(top, top + choiceRows).map(({ choice, index }) => ({
		index,
		label: stripToOneLine(choice.label),
		description: choice.description ? stripToOneLine(choice.description) : "",
	}));
	// Descriptions line up in a column after the longest label shown (within reason).
	const column = Math.min(LABEL_COLUMN_MAX, Math.max(0, ...shown.map(({ label }) => columns(label))));
	// Inside the border: the marker, the key, then label and description.
	const room = Math.max(1, width - BORDER_WIDTH - MARKER_WIDTH - (keys ? KEY_WIDTH : 0));
	return shown.map(({ index, label, description }, row) => {
		const text = fitChoiceRow(label, description, column, room);
		return {
			index,
			selected: top + row === selected,
			...(keys ? { key: keys[index] } : {}),
			label: text.label,
			description: text.description ? " ".repeat(CHOICE_GAP) + text.description : "",
		};
	});
}

/**
 * The key hint, longest first (the frame takes the first that fits); with the position ("3/40 · ") when the
 * matches scroll. `escape`: what Esc does (default "cancel"; an approval's Esc denies the call and stops the run).
 */
export function pickerHints(options: { keys?: readonly string[]; filter: boolean; selected: number; matches: number; choiceRows: number; escape?: string }): string[] {
	const { keys, filter, escape = "cancel" } = options;
	const position = options.matches > options.choiceRows ? `${options.selected + 1}/${options.matches} · ` : "";
	if (keys) return [`${position}${keys.join("/")} or ↑↓ enter · esc ${escape}`, `${position}${keys.join("/")} · ↑↓ enter · esc`, `${position}${keys.join("/")} · esc`];
	if (filter) return [`${position}↑↓ move · enter choose · esc cancel · type to filter`, `${position}↑↓ enter · esc · type to filter`, `${position}↑↓ enter · esc`];
	return [`${position}↑↓ move · enter choose · esc cancel`, `${position}↑↓ enter · esc`];
}
