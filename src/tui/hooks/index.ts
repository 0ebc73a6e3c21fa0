// Door of the screen's React hooks, each with one job.
export { useClock } from "./use-clock.js";
export { useCompletions } from "./use-completions.js";
export { useDialogKeys } from "./use-dialog-keys.js";
export { useDialogs } from "./use-dialogs.js";
export { useKeys } from "./use-keys.js";
export { useRefState } from "./use-ref-state.js";
export { useScreenKeys } from "./use-screen-keys.js";
export { useSessionView } from "./use-session-view.js";
export { useShellCommands } from "./use-shell-commands.js";
export { useSuggestions, type SuggestionPopup } from "./use-suggestions.js";
export { useTerminalHandoff } from "./use-terminal-handoff.js";
export { useTerminalSize } from "./use-terminal-size.js";
export { CLEAR_TERMINAL, useTranscriptPrinter } from "./use-transcript-printer.js";
export { useWhenIdle } from "./use-when-idle.js";
