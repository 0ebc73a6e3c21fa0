// A picker's row: the label, then its description (a date, a size, a provider: short facts) lined up in a
// column. A row too narrow for both cuts the label first, as long as the label keeps half the row.
import { columns, cutEnd } from "../text/index.js";

/** Columns between a label and its description. */
export const CHOICE_GAP = 2;

export interface ChoiceRowText {
	/** The label, cut and padded so the description starts where it should. */
	label: string;
	/** The description, cut to what is left; "" without one. */
	description: string;
}

/**
 * One row's text in `room` columns. `column`: where descriptions start when there is room (the labels shown
 * line up; a longer label pushes its own description further).
 */
export function fitChoiceRow(label: string, description: string, column: number, room: number): ChoiceRowText {
	const labelWidth = columns(label);
	if (description === "") return { label: cutEnd(label, room), description: "" };
	const descriptionWidth = columns(description);
	const labelRoom =
		Math.max(column, labelWidth) + CHOICE_GAP + descriptionWidth <= room
			? Math.max(column, labelWidth)
			: Math.max(room - CHOICE_GAP - descriptionWidth, Math.min(labelWidth, Math.ceil(room / 2)));
	const shown = cutEnd(label, labelRoom);
	return {
		label: shown + " ".repeat(Math.max(0, labelRoom - columns(shown))),
		description: cutEnd(description, Math.max(0, room - labelRoom - CHOICE_GAP)),
	};
}
