// Door of the prompt editor as data: its state and keys, paste markers, @mentions, slash commands, prompt history.
export { PASTE_END, PASTE_START, editorCommands, type EditorCommand } from "./editor-keys.js";
export { layoutEditor } from "./editor-layout.js";
export {
	backspace,
	deleteForward,
	deleteToLineEnd,
	deleteToLineStart,
	deleteToWordStart,
	deleteWordBack,
	down,
	emptyEditor,
	insert,
	isOnFirstLine,
	isOnLastLine,
	moveLeft,
	moveLineEnd,
	moveLineStart,
	moveRight,
	moveWordLeft,
	moveWordRight,
	normalizeNewlines,
	setText,
	submitted,
	up,
	withHistory,
	type EditorState,
} from "./editor-state.js";
export { EDIT_KINDS, keepMarkersWhole } from "./marker-edits.js";
export { withPasteFilter } from "./paste-filter.js";
export {
	expandPastes,
	hasMarker,
	isLargePaste,
	lostPastes,
	newMarker,
	type Paste,
	type TypedPrompt,
} from "./paste-marker.js";
export { loadPromptHistory, promptHistoryPath, savePrompt } from "./prompt-history-file.js";
export { parseShellCommand, withShellContext, type ShellRequest, type ShellResult } from "./shell-command.js";
export { hiddenCommandNotices, runSlashCommand, screenCommands } from "./slash-commands.js";
