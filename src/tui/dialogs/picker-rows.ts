// What a picker shows of its matching choices: the rows in view, each fitted to the dialog's width with the
// descriptions lined up in a column (or, when asked, wrapped onto the rows under them), and the key hint.
// Pure; PickerDialog only styles it.
import type { UiChoice } from "../../core/index.js";
import { stripToOneLine } from "../../core/index.js";
import { columns, cutEnd, noticeRows } from "../text/index.js";

/** Labels longer than this push their description further instead of widening the column. */
const LABEL_COLUMN_MAX = 40;
/** "› " before the highlighted choice (blanks before the others); "[y] " for a choice's key. */
const MARKER_WIDTH = 2;
const KEY_WIDTH = 4;
/** The dialog's border, left and right. */
const BORDER_WIDTH = 2;
/** A wrapped description narrower than this starts on the row after its label, under the label, instead. */
const MIN_DESCRIPTION_COLUMN = 16;
/** Columns between a label and its description. */
const CHOICE_GAP = 2;

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
	/** With `wrap`: the rest of a description too long for its row, each row indented from the border. */
	more?: string[];
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
	/** A description too long for its row goes on over the rows under it instead of being cut (see `more`). */
	wrap?: boolean;
}

/** A choice's text: its label padded or cut, then its description; with `more` when it wraps. */
type ChoiceText = Pick<PickerRow, "label" | "description" | "more">;

/**
 * A description too long for the row, wrapped: under the description column, or (when that leaves too little
 * room) from the row after the label, under the label. `indent`: the columns before the label.
 */
function wrappedChoice(label: string, description: string, column: number, room: number, indent: number): ChoiceText {
	const labelRoom = Math.max(column, columns(label));
	const descriptionRoom = room - labelRoom - CHOICE_GAP;
	if (descriptionRoom < MIN_DESCRIPTION_COLUMN) {
		const more = noticeRows(description.trim(), room).map((row) => " ".repeat(indent) + row);
		return { label: cutEnd(label, room), description: "", more };
	}
	const [first = "", ...rest] = noticeRows(description.trim(), descriptionRoom);
	const more = rest.map((row) => " ".repeat(indent + labelRoom + CHOICE_GAP) + row);
	return { label: label + " ".repeat(labelRoom - columns(label)), description: " ".repeat(CHOICE_GAP) + first, ...(more.length > 0 ? { more } : {}) };
}

/** The rows in view; labels and descriptions from outside are put on one line without escapes. */
export function pickerRows({ matches, top, selected, choiceRows, keys, width, wrap = false }: PickerRowsOptions): PickerRow[] {
	const shown = matches.slice(top, top + choiceRows).map(({ choice, index }) => ({
		index,
		label: stripToOneLine(choice.label),
		description: choice.description ? stripToOneLine(choice.description) : "",
	}));
	// Descriptions line up in a column after the longest label shown (within reason).
	const column = Math.min(LABEL_COLUMN_MAX, Math.max(0, ...shown.map(({ label }) => columns(label))));
	// Inside the border: the marker, the key, then label and description.
	const indent = MARKER_WIDTH + (keys ? KEY_WIDTH : 0);
	const room = Math.max(1, width - BORDER_WIDTH - indent);
	const fits = (label: string, description: string) => Math.max(column, columns(label)) + CHOICE_GAP + columns(description) <= room;
	return shown.map(({ index, label, description }, row) => {
		const text: ChoiceText = wrap && description !== "" && !fits(label, description) ? wrappedChoice(label, description, column, room, indent) : oneRow(label, description, column, room);
		return { index, selected: top + row === selected, ...(keys ? { key: keys[index] } : {}), ...text };
	});
}

/**
 * A choice on one row of `room` columns: the label, then its description (a date, a size, a provider: short
 * facts) lined up in a column. `column`: where descriptions start when there is room (the labels shown line up;
 * a longer label pushes its own description further). A row too narrow for both cuts the label first, as long
 * as the label keeps half the row.
 */
function oneRow(label: string, description: string, column: number, room: number): ChoiceText {
	const labelWidth = columns(label);
	if (description === "") return { label: cutEnd(label, room), description: "" };
	const descriptionWidth = columns(description);
	const labelRoom =
		Math.max(column, labelWidth) + CHOICE_GAP + descriptionWidth <= room
			? Math.max(column, labelWidth)
			: Math.max(room - CHOICE_GAP - descriptionWidth, Math.min(labelWidth, Math.ceil(room / 2)));
	const shown = cutEnd(label, labelRoom);
	const cut = cutEnd(description, Math.max(0, room - labelRoom - CHOICE_GAP));
	return { label: shown + " ".repeat(Math.max(0, labelRoom - columns(shown))), description: cut ? " ".repeat(CHOICE_GAP) + cut : "" };
}

/** Terminal rows `choices` take when all are shown and their descriptions wrap (see pickerRows). */
export function wrappedChoiceRows(choices: readonly UiChoice<unknown>[], keys: readonly string[] | undefined, width: number): number {
	const matches = choices.map((choice, index) => ({ choice, index }));
	const rows = pickerRows({ matches, top: 0, selected: 0, choiceRows: choices.length, ...(keys ? { keys } : {}), width, wrap: true });
	return rows.reduce((sum, row) => sum + 1 + (row.more?.length ?? 0), 0);
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
