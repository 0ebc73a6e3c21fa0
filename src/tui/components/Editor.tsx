import { Box, type Key, Text } from "ink";
import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { showControls, formatCount } from "../../core/index.js";
import type { CompletionSource } from "../completion/index.js";
import { applySuggestion } from "../completion/index.js";
import {
	layoutEditor,
	type EditorCommand,
	editorCommands,
	EDIT_KINDS,
	keepMarkersWhole,
	type Paste,
	type TypedPrompt,
	expandPastes,
	isLargePaste,
	lostPastes,
	newMarker,
} from "../editor/index.js";
import * as edit from "../editor/index.js";
import { useKeys, useSuggestions } from "../hooks/index.js";
import { SuggestionRows, suggestionHeight } from "./SuggestionRows.js";

/** Two Ctrl+C within this window exit. */
export const CTRL_C_EXIT_WINDOW_MS = 2000;

export interface EditorProps {
	/** A run is active: Enter queues a steering message; Esc, or Ctrl+C on an empty editor, interrupts. */
	running: boolean;
	width: number;
	/** Text rows shown at most; a taller text scrolls with the cursor. */
	maxRows: number;
	/** Ink's input needs a TTY in raw mode; without one the editor only renders. */
	inputActive: boolean;
	/**
	 * Handles a sent text (pastes written out) and the text as typed (with their markers); resolves with text to put
	 * back when it could not be sent.
	 */
	onSubmit(text: string, typed: string): Promise<string | undefined> | string | undefined;
	/** Esc (or Ctrl+C on an empty editor) while running: interrupts and returns the queued texts to put back into the editor. */
	onInterrupt(): string[];
	onExit(): void;
	onToggleThinking(): void;
	/** Shift+Tab: the next approval mode. */
	onCycleApproval?(): void;
	/** Called when the editor's height in rows changes, so the screen can size the live area. */
	onHeightChange?(rows: number): void;
	/** Prompts typed in earlier sessions (oldest first), read once when the editor mounts: the oldest Up recalls. */
	savedHistory?: readonly string[];
	/** The prompts of the session opened last: Up recalls them first, before those typed before. */
	history?: readonly TypedPrompt[];
	/** What to offer while typing ("/" commands, "@" files) and on Tab (paths). None: no popup. */
	completions?: CompletionSource;
	/** Ctrl+G: edits the text in the user's own editor; resolves with the new text, or undefined to keep it. */
	onExternalEdit?(text: string): Promise<string | undefined>;
	/**
	 * A prompt sent for the editor before it was up, as if sent from it: in its history, and `restore` is what
	 * onSubmit would have answered (text to put back when it could not be sent).
	 */
	sent?: { typed: string; restore: Promise<string | undefined> };
}

/** The keys an open popup takes; for any other key it is not looked up. */
const POPUP_KEYS: ReadonlySet<EditorCommand["type"]> = new Set(["up", "down", "escape", "tab", "submit"]);

/** One row of the text; a control character in it (typed or pasted) is shown written out, never obeyed. */
function Row({ text, cursor, prefix }: { text: string; cursor?: number; prefix: string }) {
	if (cursor === undefined) {
		return (
			<Text wrap="truncate-end">
				<Text color="magenta">{prefix}</Text>
				{text === "" ? " " : showControls(text)}
			</Text>
		);
	}
	const at = text.slice(cursor, cursor + 1);
	const cursorChar = at === "" ? " " : String.fromCodePoint(text.codePointAt(cursor) ?? 32);
	return (
		<Text wrap="truncate-end">
			<Text color="magenta">{prefix}</Text>
			{showControls(text.slice(0, cursor))}
			<Text inverse>{showControls(cursorChar)}</Text>
			{showControls(text.slice(cursor + cursorChar.length))}
		</Text>
	);
}

function EditorView({
	running,
	width,
	maxRows,
	inputActive,
	onSubmit,
	onInterrupt,
	onExit,
	onToggleThinking,
	onCycleApproval,
	onHeightChange,
	completions,
	onExternalEdit,
	savedHistory,
	history,
	sent,
}: EditorProps) {
	const [initial] = useState(() => {
		const empty = edit.emptyEditor([...(savedHistory ?? [])]);
		return sent ? edit.submitted(empty, sent.typed) : empty;
	});
	const stateRef = useRef(initial);
	const [state, setState] = useState(initial);
	const [hint, setHint] = useState<string | undefined>();
	const pasting = useRef(false);
	/** Text of the bracketed paste under way: inserted whole (or as a marker) when it ends. */
	const pasted = useRef("");
	/** Large pastes standing in the text as markers. */
	const pastes = useRef<Paste[]>([]);
	/** The pastes of prompts in the history, by their text as typed; and the draft's while history is browsed. */
	const historyPastes = useRef(new Map<string, readonly Paste[]>());
	const draftPastes = useRef<Paste[]>([]);
	/** Markers already warned about as changed: Enter again sends without their pastes. */
	const warnedLost = useRef<string[]>([]);
	const suggestions = useSuggestions(completions);
	const lastCtrlC = useRef(0);
	const hintTimer = useRef<NodeJS.Timeout | undefined>(undefined);

	const commit = useCallback((next: edit.EditorState) => {
		stateRef.current = next;
		setState(next);
	}, []);

	const showHint = useCallback((text: string | undefined) => {
		clearTimeout(hintTimer.current);
		setHint(text);
		if (text) hintTimer.current = setTimeout(() => setHint(undefined), CTRL_C_EXIT_WINDOW_MS);
	}, []);
	useEffect(() => () => clearTimeout(hintTimer.current), []);
	// In the commit that shows the opened session: a key pressed right after it already finds its prompts.
	useLayoutEffect(() => {
		if (!history || history.length === 0) return;
		for (const prompt of history) if (prompt.pastes && prompt.pastes.length > 0) historyPastes.current.set(prompt.text, prompt.pastes);
		commit(edit.withHistory(stateRef.current, history.map((prompt) => prompt.text)));
	}, [history, commit]);

	useEffect(() => {
		void sent?.restore.then((text) => {
			if (text && stateRef.current.text === "") commit(edit.setText(stateRef.current, text));
		});
	}, [sent, commit]);

	const submit = useCallback(
		(current: edit.EditorState): edit.EditorState => {
			// A trailing backslash asks for a newline, for terminals where Shift+Enter looks like Enter.
			if (current.text.endsWith("\\") && current.cursor === current.text.length) {
				return edit.insert(edit.backspace(current), "\n");
			}
			const typed = current.text;
			if (typed.trim() === "") return current;
			// A paste whose marker was changed is no longer in the text: say so once before sending without it.
			const lost = lostPastes(typed, pastes.current).filter((paste) => !warnedLost.current.includes(paste.marker));
			if (lost.length > 0) {
				warnedLost.current.push(...lost.map((paste) => paste.marker));
				showHint(`The text pasted as ${lost.map((paste) => paste.marker).join(", ")} is no longer in the prompt (its marker was changed): Enter again sends without it.`);
				return current;
			}
			const sent = pastes.current.filter((paste) => typed.includes(paste.marker));
			const text = expandPastes(typed, sent);
			pastes.current = [];
			warnedLost.current = [];
			if (sent.length > 0) historyPastes.current.set(typed, sent);
			Promise.resolve(onSubmit(text, typed)).then(
				(restore) => {
					if (!restore || stateRef.current.text !== "") return;
					// Text given back (a prompt that could not start, a rewound one) brings the pastes of its markers.
					pastes.current = [...(historyPastes.current.get(restore) ?? [])];
					commit(edit.setText(stateRef.current, restore));
				},
				() => {},
			);
			return edit.submitted(current, typed);
		},
		[onSubmit, commit, showHint],
	);

	/** Inserts typed or pasted text; a large one goes in as a marker. */
	const insertText = useCallback((current: edit.EditorState, text: string): edit.EditorState => {
		const normalized = edit.normalizeNewlines(text);
		if (!isLargePaste(normalized)) return edit.insert(current, normalized);
		const marker = newMarker(normalized, pastes.current);
		pastes.current = [...pastes.current, { marker, text: normalized }];
		return edit.insert(current, marker);
	}, []);

	/**
	 * The state a key leaves, its paste markers whole (see marker-edits.ts). Moving through the history swaps the
	 * pastes: a recalled prompt brings its own, and the draft's come back with the draft.
	 */
	const keepPastes = useCallback((before: edit.EditorState, after: edit.EditorState, command: EditorCommand): edit.EditorState => {
		if (after.historyIndex !== before.historyIndex) {
			if (before.historyIndex === -1) draftPastes.current = pastes.current;
			pastes.current = after.historyIndex === -1 ? draftPastes.current : [...(historyPastes.current.get(after.text) ?? [])];
			return after;
		}
		const kind = EDIT_KINDS[command.type];
		const next = kind ? keepMarkersWhole(before, after, pastes.current, kind) : after;
		// A marker deleted whole takes its paste along.
		if (kind === "delete") pastes.current = pastes.current.filter((paste) => next.text.includes(paste.marker));
		return next;
	}, []);

	/** Tab with no popup open: completes the path under the cursor, or lists the choices. */
	const completePath = useCallback(
		(current: edit.EditorState) => {
			if (!completions) return;
			const where = { text: current.text, cursor: current.cursor };
			void completions.complete(where.text, where.cursor).then((list) => {
				const now = stateRef.current;
				if (!list || now.text !== where.text || now.cursor !== where.cursor) return;
				if (list.items.length === 1) {
					const done = applySuggestion(now.text, list, list.items[0]);
					commit(keepMarkersWhole(now, { ...now, text: done.text, cursor: done.cursor }, pastes.current, "change"));
				} else suggestions.show(list, where);
			});
		},
		[completions, suggestions, commit],
	);

	/** Ctrl+G: the text (pastes written out) goes to the user's editor and comes back. */
	const editExternally = useCallback(
		(current: edit.EditorState) => {
			if (!onExternalEdit) return;
			const before = expandPastes(current.text, pastes.current);
			void onExternalEdit(before).then((text) => {
				if (text === undefined) return;
				pastes.current = [];
				commit(edit.setText(stateRef.current, text.replace(/\n$/, "")));
			});
		},
		[onExternalEdit, commit],
	);

	/** Stops the run; the messages queued for it come back into the editor, ahead of the text there. */
	const interrupt = useCallback(
		(current: edit.EditorState): edit.EditorState => {
			const restored = onInterrupt().filter((text) => text.trim() !== "");
			if (restored.length === 0) return current;
			return edit.setText(current, [...restored, current.text].filter((text) => text !== "").join("\n"));
		},
		[onInterrupt],
	);

	const apply = useCallback(
		(current: edit.EditorState, command: EditorCommand): edit.EditorState => {
			// An open popup takes the keys that move in it, choose from it and close it.
			const popup = POPUP_KEYS.has(command.type) ? suggestions.popupFor(current) : undefined;
			if (popup && popup.list.items.length > 0) {
				const item = popup.list.items[popup.selected];
				switch (command.type) {
					case "up":
					case "down":
						suggestions.move(command.type === "up" ? -1 : 1);
						return current;
					case "escape":
						suggestions.dismiss(current.text);
						return current;
					case "tab":
					case "submit": {
						// Enter on a command or path typed in full sends the text; otherwise Tab and Enter complete.
						if (command.type === "submit" && current.text.slice(popup.list.from, popup.list.to).trimEnd() === item.insert.trimEnd()) break;
						const done = applySuggestion(current.text, popup.list, item);
						const next = { ...current, text: done.text, cursor: done.cursor };
						return command.type === "submit" && item.submit ? submit(next) : next;
					}
				}
			}
			switch (command.type) {
				case "insert":
					if (!pasting.current) return insertText(current, command.text);
					pasted.current += command.text;
					return current;
				case "tab":
					completePath(current);
					return current;
				case "externalEdit":
					editExternally(current);
					return current;
				case "newline":
					return edit.insert(current, "\n");
				case "submit":
					return submit(current);
				case "backspace":
					return edit.backspace(current);
				case "deleteForward":
					return edit.deleteForward(current);
				case "left":
					return edit.moveLeft(current);
				case "right":
					return edit.moveRight(current);
				case "up":
					return edit.up(current);
				case "down":
					return edit.down(current);
				case "home":
					return edit.moveLineStart(current);
				case "end":
					return edit.moveLineEnd(current);
				case "deleteToStart":
					return edit.deleteToLineStart(current);
				case "deleteToEnd":
					return edit.deleteToLineEnd(current);
				case "deleteWord":
					return edit.deleteWordBack(current);
				case "deleteWordPart":
					return edit.deleteToWordStart(current);
				case "wordLeft":
					return edit.moveWordLeft(current);
				case "wordRight":
					return edit.moveWordRight(current);
				case "toggleThinking":
					onToggleThinking();
					return current;
				case "cycleApproval":
					onCycleApproval?.();
					return current;
				case "escape":
					return running ? interrupt(current) : current;
				case "ctrlC": {
					// Ctrl+C never throws text away by exiting: with text in the editor (typed, or put back by an
					// interrupt) it clears it; with the editor empty it interrupts a run, and a second press exits.
					const now = Date.now();
					const again = now - lastCtrlC.current <= CTRL_C_EXIT_WINDOW_MS;
					lastCtrlC.current = now;
					if (current.text === "" && again) {
						onExit();
						return current;
					}
					const next = current.text === "" ? (running ? interrupt(current) : current) : edit.setText(current, "");
					if (current.text !== "") pastes.current = [];
					showHint(next.text === "" ? "Press Ctrl+C again to exit." : "Press Ctrl+C again to clear the editor.");
					return next;
				}
				case "ctrlD":
					if (current.text === "") {
						onExit();
						return current;
					}
					return edit.deleteForward(current);
				case "pasteStart":
					pasting.current = true;
					pasted.current = "";
					return current;
				case "pasteEnd": {
					pasting.current = false;
					const text = pasted.current;
					pasted.current = "";
					return text === "" ? current : insertText(current, text);
				}
			}
		},
		[running, submit, interrupt, onExit, onToggleThinking, onCycleApproval, showHint, suggestions, insertText, completePath, editExternally],
	);

	const handleInput = useCallback(
		(input: string, key: Key) => {
			let next = stateRef.current;
			for (const command of editorCommands(input, key, pasting.current)) next = keepPastes(next, apply(next, command), command);
			if (next !== stateRef.current) commit(next);
		},
		[apply, commit, keepPastes],
	);
	useKeys(handleInput, inputActive);

	const textWidth = Math.max(1, width - 4);
	const layout = layoutEditor(state.text, state.cursor, textWidth, maxRows);
	const popup = inputActive ? suggestions.popupFor(state) : undefined;
	const height = layout.rows.length + (layout.hiddenAbove > 0 ? 1 : 0) + (layout.hiddenBelow > 0 ? 1 : 0) + 3 + (hint ? 1 : 0) + suggestionHeight(popup);
	useEffect(() => onHeightChange?.(height), [height, onHeightChange]);

	return (
		<Box flexDirection="column" width={width} marginTop={1}>
			<Box flexDirection="column" borderStyle="round" borderColor={running ? "gray" : "magenta"} paddingX={0}>
				{layout.hiddenAbove > 0 ? <Text dimColor>  ↑ {formatCount(layout.hiddenAbove, "more line")}</Text> : null}
				{state.text === "" ? (
					<Text wrap="truncate-end">
						<Text color="magenta">› </Text>
						<Text inverse> </Text>
						<Text dimColor>{running ? "Steer the run (Enter queues) · Esc interrupts" : "Ask loom · /help for commands"}</Text>
					</Text>
				) : (
					layout.rows.map((row, index) => (
						// biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in the layout
						<Row key={index} text={row.text} cursor={row.cursor} prefix={index === 0 && layout.hiddenAbove === 0 ? "› " : "  "} />
					))
				)}
				{layout.hiddenBelow > 0 ? <Text dimColor>  ↓ {formatCount(layout.hiddenBelow, "more line")}</Text> : null}
			</Box>
			{popup ? <SuggestionRows popup={popup} /> : null}
			{hint ? <Text color="yellow">{hint}</Text> : null}
		</Box>
	);
}

/** The prompt editor. Memoised: it re-renders on typing without re-rendering the rest of the screen. */
export const Editor = memo(EditorView);
