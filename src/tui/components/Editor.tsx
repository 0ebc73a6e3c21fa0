import { Box, Text, useInput } from "ink";
import { memo, useCallback, useEffect, useRef, useState } from "react";
import { showControls } from "../../core/text/sanitize-terminal.js";
import { layoutEditor } from "../editor-layout.js";
import { type EditorCommand, editorCommands } from "../editor-keys.js";
import * as edit from "../editor-state.js";

/** Two Ctrl+C within this window exit. */
export const CTRL_C_EXIT_WINDOW_MS = 2000;

export interface EditorProps {
	/** A run is active: Enter queues a steering message and Esc interrupts. */
	running: boolean;
	width: number;
	/** Text rows shown at most; a taller text scrolls with the cursor. */
	maxRows: number;
	/** Ink's input needs a TTY in raw mode; without one the editor only renders. */
	inputActive: boolean;
	/** Handles a sent text; resolves with text to put back when it could not be sent. */
	onSubmit(text: string): Promise<string | undefined> | string | undefined;
	/** Esc while running: interrupts and returns the queued texts to put back into the editor. */
	onInterrupt(): string[];
	onExit(): void;
	onToggleThinking(): void;
	/** Shift+Tab: the next approval mode. */
	onCycleApproval?(): void;
	/** Called when the editor's height in rows changes, so the screen can size the live area. */
	onHeightChange?(rows: number): void;
}

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

function EditorView({ running, width, maxRows, inputActive, onSubmit, onInterrupt, onExit, onToggleThinking, onCycleApproval, onHeightChange }: EditorProps) {
	const stateRef = useRef(edit.emptyEditor());
	const [state, setState] = useState(stateRef.current);
	const [hint, setHint] = useState<string | undefined>();
	const pasting = useRef(false);
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

	const submit = useCallback(
		(current: edit.EditorState): edit.EditorState => {
			// A trailing backslash asks for a newline, for terminals where Shift+Enter looks like Enter.
			if (current.text.endsWith("\\") && current.cursor === current.text.length) {
				return edit.insert(edit.backspace(current), "\n");
			}
			const text = current.text;
			if (text.trim() === "") return current;
			Promise.resolve(onSubmit(text)).then(
				(restore) => {
					if (restore && stateRef.current.text === "") commit(edit.setText(stateRef.current, restore));
				},
				() => {},
			);
			return edit.submitted(current, text);
		},
		[onSubmit, commit],
	);

	const apply = useCallback(
		(current: edit.EditorState, command: EditorCommand): edit.EditorState => {
			switch (command.type) {
				case "insert":
					return edit.insert(current, command.text);
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
				case "toggleThinking":
					onToggleThinking();
					return current;
				case "cycleApproval":
					onCycleApproval?.();
					return current;
				case "escape": {
					if (!running) return current;
					const restored = onInterrupt().filter((text) => text.trim() !== "");
					if (restored.length === 0) return current;
					return edit.setText(current, [...restored, current.text].filter((text) => text !== "").join("\n"));
				}
				case "ctrlC": {
					const now = Date.now();
					if (now - lastCtrlC.current <= CTRL_C_EXIT_WINDOW_MS) {
						onExit();
						return current;
					}
					lastCtrlC.current = now;
					showHint("Press Ctrl+C again to exit");
					return edit.setText(current, "");
				}
				case "ctrlD":
					if (current.text === "") {
						onExit();
						return current;
					}
					return edit.deleteForward(current);
				case "pasteStart":
					pasting.current = true;
					return current;
				case "pasteEnd":
					pasting.current = false;
					return current;
			}
		},
		[running, submit, onInterrupt, onExit, onToggleThinking, onCycleApproval, showHint],
	);

	const handleInput = useCallback(
		(input: string, key: Parameters<Parameters<typeof useInput>[0]>[1]) => {
			let next = stateRef.current;
			for (const command of editorCommands(input, key, pasting.current)) next = apply(next, command);
			if (next !== stateRef.current) commit(next);
		},
		[apply, commit],
	);
	useInput(handleInput, { isActive: inputActive });

	const textWidth = Math.max(1, width - 4);
	const layout = layoutEditor(state.text, state.cursor, textWidth, maxRows);
	const height = layout.rows.length + (layout.hiddenAbove > 0 ? 1 : 0) + (layout.hiddenBelow > 0 ? 1 : 0) + 3 + (hint ? 1 : 0);
	useEffect(() => onHeightChange?.(height), [height, onHeightChange]);

	return (
		<Box flexDirection="column" width={width} marginTop={1}>
			<Box flexDirection="column" borderStyle="round" borderColor={running ? "gray" : "magenta"} paddingX={0}>
				{layout.hiddenAbove > 0 ? <Text dimColor>  ↑ {layout.hiddenAbove} more lines</Text> : null}
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
				{layout.hiddenBelow > 0 ? <Text dimColor>  ↓ {layout.hiddenBelow} more lines</Text> : null}
			</Box>
			{hint ? <Text color="yellow">{hint}</Text> : null}
		</Box>
	);
}

/** The prompt editor. Memoised: it re-renders on typing without re-rendering the rest of the screen. */
export const Editor = memo(EditorView);
