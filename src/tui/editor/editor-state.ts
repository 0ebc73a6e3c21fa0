// The prompt editor as plain data and pure edits: text, cursor (a UTF-16 offset into text) and history.
// The Editor component maps keys onto these functions.

export interface EditorState {
	text: string;
	cursor: number;
	/** Sent prompts, oldest first. */
	history: string[];
	/** Position while browsing history; -1 when editing a fresh draft. */
	historyIndex: number;
	/** The draft put aside while browsing history. */
	draft: string;
}

export function emptyEditor(history: string[] = []): EditorState {
	return { text: "", cursor: 0, history, historyIndex: -1, draft: "" };
}

/** Terminals send \r for newlines in pastes; the editor keeps \n only. */
export function normalizeNewlines(text: string): string {
	return text.replace(/\r\n?/g, "\n");
}

export function setText(state: EditorState, text: string): EditorState {
	return { ...state, text, cursor: text.length, historyIndex: -1, draft: "" };
}

export function insert(state: EditorState, input: string): EditorState {
	const text = normalizeNewlines(input);
	return {
		...state,
		text: state.text.slice(0, state.cursor) + text + state.text.slice(state.cursor),
		cursor: state.cursor + text.length,
	};
}

/** Length of the character before `offset` (1, or 2 for a surrogate pair). */
function charBefore(text: string, offset: number): number {
	if (offset <= 0) return 0;
	const code = text.charCodeAt(offset - 1);
	return code >= 0xdc00 && code <= 0xdfff && offset >= 2 ? 2 : 1;
}

function charAfter(text: string, offset: number): number {
	if (offset >= text.length) return 0;
	const code = text.charCodeAt(offset);
	return code >= 0xd800 && code <= 0xdbff && offset + 1 < text.length ? 2 : 1;
}

export function backspace(state: EditorState): EditorState {
	const size = charBefore(state.text, state.cursor);
	if (size === 0) return state;
	return { ...state, text: state.text.slice(0, state.cursor - size) + state.text.slice(state.cursor), cursor: state.cursor - size };
}

export function deleteForward(state: EditorState): EditorState {
	const size = charAfter(state.text, state.cursor);
	if (size === 0) return state;
	return { ...state, text: state.text.slice(0, state.cursor) + state.text.slice(state.cursor + size) };
}

export function moveLeft(state: EditorState): EditorState {
	return { ...state, cursor: state.cursor - charBefore(state.text, state.cursor) };
}

export function moveRight(state: EditorState): EditorState {
	return { ...state, cursor: state.cursor + charAfter(state.text, state.cursor) };
}

function lineStart(text: string, cursor: number): number {
	return text.lastIndexOf("\n", cursor - 1) + 1;
}

function lineEnd(text: string, cursor: number): number {
	const end = text.indexOf("\n", cursor);
	return end === -1 ? text.length : end;
}

export function moveLineStart(state: EditorState): EditorState {
	return { ...state, cursor: lineStart(state.text, state.cursor) };
}

export function moveLineEnd(state: EditorState): EditorState {
	return { ...state, cursor: lineEnd(state.text, state.cursor) };
}

export function deleteToLineStart(state: EditorState): EditorState {
	const start = lineStart(state.text, state.cursor);
	return { ...state, text: state.text.slice(0, start) + state.text.slice(state.cursor), cursor: start };
}

export function deleteToLineEnd(state: EditorState): EditorState {
	const end = lineEnd(state.text, state.cursor);
	// At the end of a line, join the next one (like Emacs).
	const cut = end === state.cursor && end < state.text.length ? end + 1 : end;
	return { ...state, text: state.text.slice(0, state.cursor) + state.text.slice(cut) };
}

function deleteBackTo(state: EditorState, start: number): EditorState {
	if (start >= state.cursor) return state;
	return { ...state, text: state.text.slice(0, start) + state.text.slice(state.cursor), cursor: start };
}

/** Ctrl+W: back to the previous blank, like a shell's (a path goes whole). */
export function deleteWordBack(state: EditorState): EditorState {
	const match = /(?:\S+\s*|\s+)$/.exec(state.text.slice(0, state.cursor));
	return match ? deleteBackTo(state, state.cursor - match[0].length) : state;
}

/** Letters (with their marks), digits and underscores make words; the rest separates them. */
const WORD_BEFORE = /[\p{L}\p{M}\p{N}_]*[^\p{L}\p{M}\p{N}_]*$/u;
const WORD_AFTER = /^[^\p{L}\p{M}\p{N}_]*[\p{L}\p{M}\p{N}_]*/u;

/** Where the word before the cursor starts (separators right before the cursor are passed over first). */
function wordStart(text: string, cursor: number): number {
	return cursor - (WORD_BEFORE.exec(text.slice(0, cursor))?.[0].length ?? 0);
}

/** Where the word after the cursor ends (separators right after the cursor are passed over first). */
function wordEnd(text: string, cursor: number): number {
	return cursor + (WORD_AFTER.exec(text.slice(cursor))?.[0].length ?? 0);
}

/** Alt+B, Ctrl+Left: to the start of this or the previous word. */
export function moveWordLeft(state: EditorState): EditorState {
	return { ...state, cursor: wordStart(state.text, state.cursor) };
}

/** Alt+F, Ctrl+Right: to the end of this or the next word. */
export function moveWordRight(state: EditorState): EditorState {
	return { ...state, cursor: wordEnd(state.text, state.cursor) };
}

/** Alt+Backspace: back to the start of this or the previous word (a path goes one part at a time). */
export function deleteToWordStart(state: EditorState): EditorState {
	return deleteBackTo(state, wordStart(state.text, state.cursor));
}

export function isOnFirstLine(state: EditorState): boolean {
	return state.text.lastIndexOf("\n", state.cursor - 1) === -1;
}

export function isOnLastLine(state: EditorState): boolean {
	return state.text.indexOf("\n", state.cursor) === -1;
}

function moveVertically(state: EditorState, direction: -1 | 1): EditorState {
	const { text, cursor } = state;
	const start = lineStart(text, cursor);
	const column = cursor - start;
	if (direction === -1) {
		if (start === 0) return state;
		const previousStart = lineStart(text, start - 1);
		return { ...state, cursor: Math.min(previousStart + column, start - 1) };
	}
	const end = lineEnd(text, cursor);
	if (end === text.length) return state;
	const nextStart = end + 1;
	return { ...state, cursor: Math.min(nextStart + column, lineEnd(text, nextStart)) };
}

/** Up: previous line, or the previous prompt from history when already on the first line. */
export function up(state: EditorState): EditorState {
	if (!isOnFirstLine(state)) return moveVertically(state, -1);
	if (state.history.length === 0) return state;
	if (state.historyIndex === -1) {
		const index = state.history.length - 1;
		const text = state.history[index];
		return { ...state, historyIndex: index, draft: state.text, text, cursor: text.length };
	}
	if (state.historyIndex === 0) return state;
	const index = state.historyIndex - 1;
	const text = state.history[index];
	return { ...state, historyIndex: index, text, cursor: text.length };
}

/** Down: next line, or forward through history back to the draft when on the last line. */
export function down(state: EditorState): EditorState {
	if (!isOnLastLine(state)) return moveVertically(state, 1);
	if (state.historyIndex === -1) return state;
	const index = state.historyIndex + 1;
	if (index >= state.history.length) return { ...state, historyIndex: -1, text: state.draft, cursor: state.draft.length, draft: "" };
	const text = state.history[index];
	return { ...state, historyIndex: index, text, cursor: text.length };
}

/**
 * History with `prompts` (an opened session's) last, so that Up recalls them first; each is taken out of where it
 * was before (typed earlier, saved from that very session), so it comes once. The text being edited stays.
 */
export function withHistory(state: EditorState, prompts: readonly string[]): EditorState {
	const incoming = new Set(prompts);
	const history = state.history.filter((entry) => !incoming.has(entry));
	for (const prompt of prompts) if (history.at(-1) !== prompt) history.push(prompt);
	return { ...state, history, historyIndex: -1, draft: "" };
}

/** Clears the editor and records the sent text in history (no consecutive duplicates). */
export function submitted(state: EditorState, sent: string): EditorState {
	const history = sent.trim() === "" || state.history[state.history.length - 1] === sent ? state.history : [...state.history, sent];
	return emptyEditor(history);
}
