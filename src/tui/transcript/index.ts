// Door of the transcript: the screen's view model and the text printed into the terminal's scrollback.
export { HISTORY_PROMPTS, historyItems, promptHistory } from "./history.js";
export { promptItem, thinkingFromContent } from "./message-text.js";
export { spinnerFrame, styledLineText, toolRowHeader, toolRowLines } from "./tool-row-text.js";
export { expandLast, transcriptText } from "./transcript-text.js";
export {
	initialView,
	isBusy,
	type ActiveAssistant,
	type NewTranscriptItem,
	type RetryView,
	type ScreenView,
	type ToolRunView,
	type ToolStatus,
	type TranscriptItem,
	type UiEvent,
} from "./view-model.js";
