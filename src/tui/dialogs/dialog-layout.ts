// How many terminal rows each part of a dialog gets, so a dialog is never taller than `maxRows` (the rows the
// screen can give it while keeping the whole live area shorter than the terminal). Each row of a dialog is
// one terminal row: long rows are cut, never wrapped (a picker's body is wrapped to the width before it is laid
// out, so an approval shows its command whole; so are the descriptions of a short list that has the room).

/** Choices shown at once; more scroll. */
export const MAX_CHOICE_ROWS = 10;
/** Rows of a body kept when choices compete for room. */
const MIN_BODY_ROWS = 3;

/** The rows every dialog has around its content: top margin, two border rows, title, key hint. */
export interface DialogChrome {
	margin: 0 | 1;
	hint: 0 | 1;
	/** margin + 2 borders + title + hint */
	rows: number;
}

/** The chrome for a dialog whose content needs at least `minContent` rows: margin, then hint, go first when tight. */
export function dialogChrome(maxRows: number, minContent: number): DialogChrome {
	let margin: 0 | 1 = 1;
	let hint: 0 | 1 = 1;
	if (maxRows - (3 + margin + hint) < minContent) margin = 0;
	if (maxRows - (3 + margin + hint) < minContent) hint = 0;
	return { margin, hint, rows: 3 + margin + hint };
}

export interface PickerLayout {
	chrome: DialogChrome;
	/** Body lines shown. */
	bodyRows: number;
	/** Body lines left out. */
	bodyHidden: number;
	/** 1 when a row says how many body lines were left out (when there is a row for it). */
	bodyCutRow: 0 | 1;
	/** Rows for the choices (one says "no match" when none is left); with `wrapChoices`, more than the choices. */
	choiceRows: number;
	/** The choices' descriptions wrap: every choice is shown, in `choiceRows` rows, and none scrolls. */
	wrapChoices: boolean;
	filterRows: 0 | 1;
	height: number;
}

/**
 * `wrappedRows`: the rows the choices take with their descriptions wrapped (wrappedChoiceRows), for a list that
 * does not filter. They wrap when the list is short enough not to scroll and the rows are there (a body keeping
 * the rows it is given beside one row per choice); else each choice keeps one row and the list scrolls.
 */
export function pickerLayout(options: { maxRows: number; bodyLines: number; choices: number; filter: boolean; wrappedRows?: number }): PickerLayout {
	const filterRows = options.filter ? 1 : 0;
	const chrome = dialogChrome(options.maxRows, filterRows + 1);
	const room = Math.max(0, options.maxRows - chrome.rows - filterRows);
	const choiceRoom = Math.max(1, room - Math.min(options.bodyLines, MIN_BODY_ROWS));
	const wrapped = options.filter ? undefined : options.wrappedRows;
	const wrapChoices = wrapped !== undefined && wrapped > options.choices && options.choices <= MAX_CHOICE_ROWS && wrapped <= choiceRoom;
	const choicesWanted = wrapChoices ? wrapped : Math.max(1, Math.min(options.choices, MAX_CHOICE_ROWS));
	const choiceRows = Math.min(choicesWanted, choiceRoom);
	const bodyRoom = Math.max(0, room - choiceRows);
	const fits = options.bodyLines <= bodyRoom;
	const bodyRows = fits ? options.bodyLines : Math.max(0, bodyRoom - 1);
	const bodyHidden = options.bodyLines - bodyRows;
	const bodyCutRow = bodyHidden > 0 && bodyRoom > 0 ? 1 : 0;
	const height = chrome.rows + bodyRows + bodyCutRow + filterRows + choiceRows;
	return { chrome, bodyRows, bodyHidden, bodyCutRow, choiceRows, wrapChoices, filterRows, height };
}

/** Rows of a text block (a confirm's message) given what else the dialog needs; the rest is cut. */
export function textBlockLayout(options: { maxRows: number; lines: number; fixed: number }): { chrome: DialogChrome; shown: number; hidden: number; cutRow: 0 | 1; height: number } {
	const chrome = dialogChrome(options.maxRows, options.fixed);
	const room = Math.max(0, options.maxRows - chrome.rows - options.fixed);
	const shown = options.lines <= room ? options.lines : Math.max(0, room - 1);
	const hidden = options.lines - shown;
	const cutRow = hidden > 0 && room > 0 ? 1 : 0;
	return { chrome, shown, hidden, cutRow, height: chrome.rows + options.fixed + shown + cutRow };
}

/**
 * The first body row shown when only `shown` of its rows fit: the top, unless that would hide every change (a
 * diff's added or removed rows); then one row before the first change, so the question shows what it is about.
 */
export function bodyStart(changed: readonly boolean[], shown: number): number {
	const first = changed.indexOf(true);
	if (shown >= changed.length || first < shown) return 0;
	return Math.max(0, Math.min(first - 1, changed.length - shown));
}
