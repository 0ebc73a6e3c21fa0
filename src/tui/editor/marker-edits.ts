// Keeps the editor's paste markers whole across an edit: given the state before and after a key, the state to
// keep. Pure. A move that stops inside a marker goes on to its far side; a deletion that reaches into one takes
// it whole; any other change that would cut into one is not made.
import type { EditorCommand } from "./editor-keys.js";
import type { EditorState } from "./editor-state.js";
import { type Paste, cursorOutside, markerSpans, wholeMarkers } from "./paste-marker.js";

/** What a key does to the text: moves the cursor, deletes from the cursor, or inserts or replaces text. */
export type EditKind = "move" | "delete" | "change";

/** What each key does to the text, for keeping paste markers whole (keys not listed change nothing or everything). */
export const EDIT_KINDS: Partial<Record<EditorCommand["type"], EditKind>> = {
	left: "move",
	right: "move",
	up: "move",
	down: "move",
	home: "move",
	end: "move",
	wordLeft: "move",
	wordRight: "move",
	backspace: "delete",
	deleteForward: "delete",
	deleteToStart: "delete",
	deleteToEnd: "delete",
	deleteWord: "delete",
	deleteWordPart: "delete",
	ctrlD: "delete",
	insert: "change",
	newline: "change",
	tab: "change",
	submit: "change",
	pasteEnd: "change",
};

export function keepMarkersWhole(before: EditorState, after: EditorState, pastes: readonly Paste[], kind: EditKind): EditorState {
	if (pastes.length === 0 || before === after) return after;
	if (kind === "move") {
		if (after.text !== before.text) return after;
		const toward = after.cursor < before.cursor ? "start" : "end";
		const cursor = cursorOutside(after.text, after.cursor, pastes, toward);
		return cursor === after.cursor ? after : { ...after, cursor };
	}
	if (kind === "delete") {
		// Every deletion leaves the cursor where the removed text began.
		const start = after.cursor;
		const end = start + before.text.length - after.text.length;
		if (end <= start || before.text.slice(0, start) + before.text.slice(end) !== after.text) return after;
		const whole = wholeMarkers(before.text, { start, end }, pastes);
		return { ...after, text: before.text.slice(0, whole.start) + before.text.slice(whole.end), cursor: whole.start };
	}
	return markerSpans(after.text, pastes).length < markerSpans(before.text, pastes).length ? before : after;
}
