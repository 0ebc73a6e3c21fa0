// Door of tui/completion.
export { createCompletions, type CompletionSource } from "./completions.js";
export { fuzzyFilter } from "./fuzzy-match.js";
export { applySuggestion, type SuggestionList } from "./suggestions.js";
